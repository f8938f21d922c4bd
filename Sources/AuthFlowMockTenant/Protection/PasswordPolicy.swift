import AuthFlowCore

/// The database connection's password policy (Auth0's named levels), and the
/// `PasswordStrengthError` body it produces (docs/protocol.md §4.1).
public enum PasswordPolicy: String, Sendable, CaseIterable {
  case none, low, fair, good, excellent

  /// The minimum length of the level.
  var minimumLength: Int {
    switch self {
    case .none: return 1
    case .low: return 6
    case .fair, .good: return 8
    case .excellent: return 10
    }
  }

  /// How many of the four character classes are required (0: no rule).
  var requiredClasses: Int {
    switch self {
    case .none, .low: return 0
    case .fair: return 3
    case .good, .excellent: return 3
    }
  }

  /// Character classes: lower, upper, digits, special.
  static let classes: [(code: String, message: String, test: @Sendable (Character) -> Bool)] = [
    ("lowerCase", "lower case letters (a-z)", { $0.isASCII && $0.isLowercase }),
    ("upperCase", "upper case letters (A-Z)", { $0.isASCII && $0.isUppercase }),
    ("numbers", "numbers (i.e. 0-9)", { $0.isASCII && $0.isNumber }),
    ("specialCharacters", "special characters (e.g. !@#$%^&*)", { !($0.isASCII && ($0.isLetter || $0.isNumber)) }),
  ]

  /// The rules object (`{"rules":[…],"verified":bool}`) for `password`.
  func evaluate(_ password: String) -> (verified: Bool, rules: Value) {
    var rules: [Value] = []
    let longEnough = password.count >= minimumLength
    rules.append(
      .object([
        "message": .string("At least %d characters in length"), "format": .array([.int(minimumLength)]),
        "code": .string("lengthAtLeast"), "verified": .bool(longEnough),
      ]))
    var verified = longEnough
    if requiredClasses > 0 {
      let items = Self.classes.map { entry in (entry, password.contains(where: entry.test)) }
      let count = items.filter(\.1).count
      let classesOK = count >= requiredClasses
      verified = verified && classesOK
      rules.append(
        .object([
          "message": .string("Contain at least %d of the following %d types of characters:"),
          "format": .array([.int(requiredClasses), .int(Self.classes.count)]), "code": .string("containsAtLeast"),
          "items": .array(
            items.map { entry, ok in
              .object(["message": .string(entry.message), "code": .string(entry.code), "verified": .bool(ok)])
            }), "verified": .bool(classesOK),
        ]))
    }
    if self == .excellent {
      let repeats = Self.hasTripleRepeat(password)
      verified = verified && !repeats
      rules.append(
        .object([
          "message": .string("No more than %d identical characters in a row (e.g., \"%s\" not allowed)"),
          "format": .array([.int(2), .string("aaa")]), "code": .string("identicalChars"), "verified": .bool(!repeats),
        ]))
    }
    return (verified, .object(["rules": .array(rules), "verified": .bool(verified)]))
  }

  /// The policy as text (`policy` of the error).
  var text: String {
    var lines = ["* At least \(minimumLength) characters in length"]
    if requiredClasses > 0 {
      lines.append("* Contain at least \(requiredClasses) of the following \(Self.classes.count) types of characters:")
      lines += Self.classes.map { " * \($0.message)" }
    }
    if self == .excellent { lines.append("* No more than 2 identical characters in a row (e.g., \"aaa\" not allowed)") }
    return lines.joined(separator: "\n")
  }

  private static func hasTripleRepeat(_ text: String) -> Bool {
    let characters = Array(text)
    guard characters.count >= 3 else { return false }
    for index in 2..<characters.count
    where characters[index] == characters[index - 1] && characters[index] == characters[index - 2] {
      return true
    }
    return false
  }
}
