import AuthFlowCore
import Foundation

/// `random_email()`: a fresh address for sign-up flows.
struct RandomEmailFunction: ExpressionFunction {
  static let name = "random_email"
  static let arity = 0...0
  static let signature = "random_email()"
  static let summary = "A new address authflow+<12 random letters and digits>@example.com."
  static let examples = [
    FunctionExample(#"matches(random_email(), '^authflow\+[a-z0-9]{12}@example\.com$')"#, true),
    FunctionExample("random_email() != random_email()", true),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    let local = String((0..<12).compactMap { _ in alphabet.randomElement(using: &generator) })
    return .string("authflow+\(local)@example.com")
  }
}

/// `random_password()`: a strong password, as a secret.
struct RandomPasswordFunction: ExpressionFunction {
  static let name = "random_password"
  static let arity = 0...0
  static let signature = "random_password()"
  static let summary =
    "A secret 20-character password with upper- and lower-case letters, digits and symbols."
  static let examples = [
    FunctionExample("len(random_password())", 20),
    FunctionExample(#"matches(random_password(), '[A-Z]') && matches(random_password(), '[!#%*+\-=?@^_]')"#, true),
  ]

  private static let classes: [[Character]] = [
    Array("ABCDEFGHJKLMNPQRSTUVWXYZ"), Array("abcdefghijkmnopqrstuvwxyz"), Array("23456789"),
    Array("!#%*+-=?@^_"),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    var generator = SystemRandomNumberGenerator()
    let all = Self.classes.flatMap { $0 }
    var characters = Self.classes.compactMap { $0.randomElement(using: &generator) }
    while characters.count < 20 {
      if let character = all.randomElement(using: &generator) { characters.append(character) }
    }
    characters.shuffle(using: &generator)
    return .secret(.string(String(characters)))
  }
}

/// `uuid()`: a random UUID.
struct UUIDFunction: ExpressionFunction {
  static let name = "uuid"
  static let arity = 0...0
  static let signature = "uuid()"
  static let summary = "A random version-4 UUID in lower case."
  static let examples = [
    FunctionExample("matches(uuid(), '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')", true)
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    .string(UUID().uuidString.lowercased())
  }
}
