import AuthFlowCore
import AuthFlowExpression
import AuthFlowRuntime
import Testing

/// The runtime's expression functions (`totp`) run their self-described examples, like the
/// standard functions do, with the clock at `FunctionExample.clock`.
@Suite("Runtime expression functions")
struct RuntimeFunctionTests {
  static let runtimeOnly = Pipeline.functions.sorted.filter {
    FunctionRegistry.standard.function(named: type(of: $0).name) == nil
  }

  @Test("totp is registered beside the standard functions")
  func registered() {
    #expect(Pipeline.functions.names.contains("totp"))
    #expect(Pipeline.functions.names.contains("lower"))
  }

  @Test("Every runtime function's examples hold")
  func examples() throws {
    #expect(!Self.runtimeOnly.isEmpty)
    for function in Self.runtimeOnly {
      for example in type(of: function).examples {
        let parsed = try Expr.parse(example.expression).get()
        #expect(parsed.check(functions: Pipeline.functions, roots: EvaluationContext.standardRoots).isEmpty)
        let context = EvaluationContext(roots: [:], functions: Pipeline.functions, now: { FunctionExample.clock })
        #expect(try parsed.evaluate(in: context) == example.result, "\(example.expression)")
      }
    }
  }

  @Test("totp's code is a secret and changes with the period")
  func totpIsSecret() throws {
    let parsed = try Expr.parse("totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')").get()
    let later = EvaluationContext(roots: [:], functions: Pipeline.functions, now: { FunctionExample.clock + 30 })
    let value = try parsed.evaluate(in: later)
    #expect(value.isSecret)
    #expect(value != .secret("921300"))
    let bad = try Expr.parse("totp('not base32!')").get()
    #expect(throws: ExpressionError.self) { try bad.evaluate(in: later) }
  }
}
