import AuthFlowCore
import AuthFlowExpression
import AuthFlowTestSupport
import Testing

/// Every function's self-describing examples run here, SwiftLint-style.
@Suite struct FunctionTests {
  static let allExamples: [(String, FunctionExample)] = FunctionRegistry.standard.sorted.flatMap { function in
    type(of: function).examples.map { (type(of: function).name, $0) }
  }

  @Test(arguments: allExamples)
  func example(function: String, example: FunctionExample) throws {
    let parsed = try Expr.parse(example.expression).get()
    #expect(parsed.check(functions: .standard, roots: EvaluationContext.standardRoots).isEmpty)
    #expect(try parsed.evaluate(in: sampleContext) == example.result, "\(example.expression)")
  }

  @Test(arguments: FunctionRegistry.standard.sorted.map { type(of: $0).name })
  func isSelfDescribing(name: String) throws {
    let function = try #require(FunctionRegistry.standard.function(named: name))
    let kind = type(of: function)
    #expect(kind.signature.hasPrefix("\(name)("))
    #expect(!kind.summary.isEmpty)
    #expect(kind.arity != 0...Int.max, "state the arity")
    #expect(!kind.examples.isEmpty)
    for example in kind.examples {
      #expect(example.expression.contains("\(name)("), "an example of \(name) should call it")
    }
  }

  @Test func registryHasTheDesignedFunctions() {
    #expect(
      FunctionRegistry.standard.names == [
        "base64url_decode", "base64url_encode", "contains", "default", "difference", "ends_with", "entropy_bits", "int",
        "join", "json", "jwt", "keys", "len", "lower", "matches", "now", "random_email", "random_password",
        "random_phone",
        "secret",
        "split", "starts_with", "string", "to_json", "upper", "url_query", "uuid",
      ])
  }

  struct Shout: ExpressionFunction {
    static let name = "shout"
    static let arity = 1...1
    func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
      .string((arguments[0].stringValue ?? "") + "!")
    }
  }

  @Test func registryCanBeExtended() throws {
    let registry = FunctionRegistry.standard.adding([Shout()])
    #expect(registry.names.contains("shout"))
    #expect(registry.names.contains("lower"))
    let context = EvaluationContext(roots: sampleRoots, functions: registry)
    #expect(try evaluate("${{ shout('hi') }}", in: context) == "hi!")
    let parsed = try template("${{ shout('a') + lower('B') }}")
    #expect(parsed.check(functions: registry, roots: EvaluationContext.standardRoots).isEmpty)
    #expect(
      parsed.check(functions: .standard, roots: EvaluationContext.standardRoots).map(\.message) == [
        "unknown function 'shout'"
      ])
  }

  @Test func randomPasswordIsSecretAndStrong() throws {
    let value = try evaluate("${{ random_password() }}")
    #expect(value.isSecret)
    let text = try #require(value.stringValue)
    #expect(text.count == 20)
    let upper = text.contains { $0.isUppercase }
    let lower = text.contains { $0.isLowercase }
    let digit = text.contains { $0.isNumber }
    let symbol = text.contains { !$0.isLetter && !$0.isNumber }
    #expect(upper && lower && digit && symbol)
  }

  @Test func randomValuesDiffer() throws {
    #expect(try evaluate("${{ uuid() }}") != evaluate("${{ uuid() }}"))
    #expect(try evaluate("${{ random_email() }}").isSecret == false)
  }

  @Test func nowReadsTheContextClock() throws {
    let context = EvaluationContext(roots: [:], now: { 42.9 })
    #expect(try evaluate("${{ now() }}", in: context) == 42)
    let system = try #require(try evaluate("${{ now() }}", in: EvaluationContext(roots: [:])).intValue)
    #expect(system > 1_700_000_000)
  }

  @Test func matchesInALoopReusesTheCompiledPattern() throws {
    let parsed = try template("${{ matches(vars.name, '^A[a-z]+$') }}")
    for _ in 0..<200 { #expect(try parsed.evaluate(in: sampleContext) == true) }
  }

  @Test(arguments: [
    ("${{ lower(1) }}", "argument 1 of 'lower' must be a string, got int"),
    ("${{ len(3) }}", "argument 1 of 'len' must be a string, array or object, got int"),
    ("${{ contains(null, 'a') }}", "argument 1 of 'contains' must be a string, array or object, got null"),
    (
      "${{ jwt('abc') }}",
      "'jwt' needs a compact JWS: three base64url parts, header.payload.signature, with JSON header and payload"
    ),
    ("${{ json('{') }}", "'json' got text that is not valid JSON"),
    ("${{ int('x') }}", "'int' got a string that is not a number"),
    ("${{ base64url_decode('***') }}", "'base64url_decode' got text that is not base64url"),
    ("${{ matches('a', vars.name + '(') }}", "'matches' got an invalid regular expression"),
  ])
  func argumentErrorsPointAtTheCall(text: String, message: String) {
    let failure = error(in: text)
    #expect(failure?.message == message)
    #expect(failure?.offset == 4)
  }
}

@Suite struct FunctionReferenceTests {
  @Test func referenceSnapshot() {
    if let mismatch = Snapshot.verify(FunctionRegistry.standard.markdownReference, named: "functions") {
      Issue.record("\(mismatch)")
    }
  }
}
