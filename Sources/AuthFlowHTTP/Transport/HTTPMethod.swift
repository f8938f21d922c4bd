/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue.uppercased()
  }

  public init(stringLiteral value: String) {
    self.init(rawValue: value)
  }

  public static let get = HTTPMethod(rawValue: "GET")
  public static let head = HTTPMethod(rawValue: "HEAD")
  public static let post = HTTPMethod(rawValue: "POST")
  public static let put = HTTPMethod(rawValue: "PUT")
  public static let patch = HTTPMethod(rawValue: "PATCH")
  public static let delete = HTTPMethod(rawValue: "DELETE")
  public static let options = HTTPMethod(rawValue: "OPTIONS")

  /// True for the methods RFC 9110 §9.2.2 calls idempotent: safe to repeat after a lost response.
  public var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
  }

  public var description: String { rawValue }
}
