/// A problem found in an input file, located, with optional notes and a fix hint.
///
/// Stages collect diagnostics rather than throwing at the first one, so that `authflow validate`
/// reports every problem in every file.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
  public enum Severity: String, Sendable, Hashable, Comparable {
    case error, warning, note

    private var rank: Int {
      switch self {
      case .error: return 0
      case .warning: return 1
      case .note: return 2
      }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
  }

  /// A second location that explains the first ("first defined here").
  public struct Note: Sendable, Hashable {
    public var location: SourceLocation?
    public var message: String

    public init(_ message: String, at location: SourceLocation?) {
      self.message = message
      self.location = location
    }
  }

  public var severity: Severity
  public var message: String
  public var location: SourceLocation?
  /// The length of the span to underline at `location` (at least one caret).
  public var length: Int
  public var notes: [Note]
  /// How to fix it ("did you mean 'expect'?").
  public var hint: String?

  public init(
    _ severity: Severity = .error, _ message: String, at location: SourceLocation?, length: Int = 1,
    notes: [Note] = [], hint: String? = nil
  ) {
    self.severity = severity
    self.message = message
    self.location = location
    self.length = length
    self.notes = notes
    self.hint = hint
  }

  public static func error(
    _ message: String, at location: SourceLocation?, length: Int = 1, notes: [Note] = [], hint: String? = nil
  ) -> Diagnostic {
    Diagnostic(.error, message, at: location, length: length, notes: notes, hint: hint)
  }

  public static func warning(_ message: String, at location: SourceLocation?, hint: String? = nil) -> Diagnostic {
    Diagnostic(.warning, message, at: location, hint: hint)
  }

  /// `path:line:col: error: message` — the first line of the rendered form.
  public var description: String {
    let prefix = location.map { "\($0): " } ?? ""
    return "\(prefix)\(severity.rawValue): \(message)"
  }

  public var isError: Bool { severity == .error }
}

extension Array where Element == Diagnostic {
  public var hasErrors: Bool { contains { $0.isError } }

  /// Sorted by file, line and column; diagnostics without a location last.
  public var sortedByLocation: [Diagnostic] {
    sorted { lhs, rhs in
      switch (lhs.location, rhs.location) {
      case (let left?, let right?): return left < right
      case (.some, nil): return true
      default: return false
      }
    }
  }
}
