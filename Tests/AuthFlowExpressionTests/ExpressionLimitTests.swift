import AuthFlowCore
import AuthFlowExpression
import Testing

/// The expression parser's resource limits: nesting and length are errors, never a stack overflow.
@Suite struct ExpressionLimitTests {
  /// About 7,800 nested parentheses used to overflow the stack.
  @Test(arguments: [10_000, 100_000])
  func deepParenthesesAreAnError(depth: Int) {
    let source = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
    guard case .failure(let error) = Expr.parse(source) else {
      Issue.record("expected an error")
      return
    }
    #expect(error.message.contains("nested more than \(InputLimits.expressionDepth) levels"))
  }

  @Test(arguments: ["!", "-", "[", "a["])
  func otherNestingIsBoundedToo(prefix: String) {
    let source = String(repeating: prefix, count: 5_000) + "1"
    guard case .failure(let error) = Expr.parse(source) else {
      Issue.record("expected an error")
      return
    }
    #expect(error.message.contains("nested more than"))
  }

  @Test func longChainsOfOperatorsAreBounded() {
    let source = Array(repeating: "1", count: 3_000).joined(separator: " + ")
    guard case .failure(let error) = Expr.parse(source) else {
      Issue.record("expected an error")
      return
    }
    #expect(error.message.contains("nested more than"))
  }

  @Test func nestingWithinTheLimitParses() throws {
    let depth = InputLimits.expressionDepth / 2
    let source = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
    #expect(try Expr.parse(source).get().evaluate(in: sampleContext) == .int(1))
  }

  @Test func longExpressionsAreAnError() {
    let source = "'" + String(repeating: "a", count: InputLimits.expressionLength + 10) + "'"
    guard case .failure(let error) = Expr.parse(source) else {
      Issue.record("expected an error")
      return
    }
    #expect(error.message.contains("longer than \(InputLimits.expressionLength) characters"))
  }

  @Test(arguments: [
    "9223372036854775807 + 1", "-9223372036854775807 - 2", "-(-9223372036854775807 - 1)",
  ])
  func integerOverflowIsAnExpressionError(source: String) throws {
    #expect(throws: ExpressionError.self) { try Expr.parse(source).get().evaluate(in: sampleContext) }
  }
}
