/// The configuration this binary was compiled in; figures from a debug build are not the
/// product's speed.
public enum BuildConfiguration: String, Sendable, Codable {
  case debug
  case release

  /// This binary's configuration (SwiftPM defines `DEBUG` in debug builds).
  public static var current: BuildConfiguration {
    #if DEBUG
      return .debug
    #else
      return .release
    #endif
  }
}
