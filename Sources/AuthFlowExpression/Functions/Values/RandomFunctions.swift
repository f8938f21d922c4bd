import AuthFlowCore
import Foundation

/// `random_email()`: a fresh address for sign-up flows — one the tenant's inbox receives.
struct RandomEmailFunction: ExpressionFunction {
  static let name = "random_email"
  static let arity = 0...0
  static let signature = "random_email()"
  static let summary =
    "A new address: the tenant's `inbox.address` with {id} replaced by 12 random letters and digits (qa+{id}@test.example.com), else authflow+<12 random letters and digits>@example.com."
  static let examples = [
    FunctionExample(#"matches(random_email(), '^authflow\+[a-z0-9]{12}@example\.com$')"#, true),
    FunctionExample("random_email() != random_email()", true),
  ]

  /// Where the tenant's address pattern is among the roots: `tenant.inbox.address`.
  static func addressPattern(in context: EvaluationContext) -> String? {
    context.roots["tenant"]?.member("inbox")?.member("address")?.stringValue
  }

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    // 62 bits of randomness: two instances, jobs or shards, or two runs at once, never share an address.
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    let local = String((0..<12).compactMap { _ in alphabet.randomElement(using: &generator) })
    if let pattern = Self.addressPattern(in: context), pattern.contains("{id}") {
      return .string(pattern.replacingOccurrences(of: "{id}", with: local))
    }
    return .string("authflow+\(local)@example.com")
  }
}

/// `random_phone()`: a fresh phone number for SMS flows.
struct RandomPhoneFunction: ExpressionFunction {
  static let name = "random_phone"
  static let arity = 0...0
  static let signature = "random_phone()"
  static let summary = "A new E.164 number in the North American 555 exchange: +1555 and 7 random digits."
  static let examples = [
    FunctionExample(#"matches(random_phone(), '^\+1555[0-9]{7}$')"#, true),
    FunctionExample("random_phone() != random_phone()", true),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    var generator = SystemRandomNumberGenerator()
    let digits = (0..<7).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
    return .string("+1555\(digits)")
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
