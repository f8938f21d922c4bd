import AuthFlowCore
import AuthFlowExpression
import Testing

@Suite struct ParserTests {
  /// Each source and how it groups: loosest `||`, then `&&`, equality, comparison, additive,
  /// prefix, postfix.
  @Test(
    arguments: [
      ("a || b && c", "(a || (b && c))"),
      ("a && b || c", "((a && b) || c)"),
      ("a == b && c != d", "((a == b) && (c != d))"),
      ("a < b == c >= d", "((a < b) == (c >= d))"),
      ("a + b < c - d", "((a + b) < (c - d))"),
      ("a - b - c", "((a - b) - c)"),
      ("a + b + c", "((a + b) + c)"),
      ("!a && b", "((!a) && b)"),
      ("!a == b", "((!a) == b)"),
      ("-a + b", "((-a) + b)"),
      ("- 3 + 1", "(-3 + 1)"),
      ("!!a", "(!(!a))"),
      ("!a.b[0]", "(!a.b[0])"),
      ("(a || b) && c", "((a || b) && c)"),
      ("a.b.c[1]['d'].e", "a.b.c[1]['d'].e"),
      ("a.items.0.id", "a.items.0.id"),
      ("f(a, b + 1)[0]", "f(a, (b + 1))[0]"),
      ("[1, 'x', [true]]", "[1, 'x', [true]]"),
      ("len([])", "len([])"),
      ("a <= b || a > c", "((a <= b) || (a > c))"),
    ] as [(String, String)])
  func precedence(source: String, grouped: String) throws {
    #expect(try Expr.parse(source).get().description == grouped)
  }

  @Test(
    arguments: [
      ("42", Value.int(42)),
      ("-7", -7),
      ("3.25", 3.25),
      ("1e3", 1000.0),
      ("true", true),
      ("false", false),
      ("null", nil),
      ("'single'", "single"),
      ("\"double\"", "double"),
      (#"'it''s'"#, "it's"),
      (#"'a\'b'"#, "a'b"),
      (#""a\"b""#, "a\"b"),
      (#"'tab\there'"#, "tab\there"),
      (#"'line\n'"#, "line\n"),
      (#"'back\\slash'"#, "back\\slash"),
      (#"'\u{e9}'"#, "é"),
      (#"'\d+\.com'"#, "\\d+\\.com"),
      ("'}}'", "}}"),
      ("90s", 90),
      ("5m", 300),
      ("2h", 7200),
      ("250ms", 0.25),
      ("1500ms", 1.5),
      ("1000ms", 1),
      ("1.5m", 90),
    ] as [(String, Value)])
  func literals(source: String, value: Value) throws {
    #expect(try Expr.parse(source).get().evaluate(in: sampleContext) == value)
  }

  @Test func textWithoutExpressionIsNotATemplate() throws {
    #expect(try TemplateString.parse("plain text with $ and {{ braces }}").get() == nil)
    #expect(try TemplateString.parse("").get() == nil)
  }

  @Test(
    arguments: [
      ("${{ vars.count }}", true),
      ("  ${{ vars.count }}\n", true),
      ("${{vars.count}}", true),
      ("n=${{ vars.count }}", false),
      ("${{ vars.count }}${{ vars.count }}", false),
      ("${{ vars.count }} s", false),
    ] as [(String, Bool)])
  func wholeOrInterpolated(text: String, isWhole: Bool) throws {
    let parsed = try template(text)
    if case .whole = parsed { #expect(isWhole) } else { #expect(!isWhole) }
  }

  @Test func wholeKeepsTheOffsetOfItsOpening() throws {
    let parsed = try template("  ${{ vars.count }}")
    guard case .whole(let expr, let offset) = parsed else {
      Issue.record("expected a whole expression")
      return
    }
    #expect(offset == 2)
    #expect(expr.startOffset == 6)
  }

  @Test func interpolatedParts() throws {
    let parsed = try template("Bearer ${{ vars.name }}!")
    guard case .interpolated(let parts) = parsed else {
      Issue.record("expected interpolation")
      return
    }
    #expect(parts.count == 3)
    #expect(parts.first == .text("Bearer "))
    #expect(parts.last == .text("!"))
  }

  @Test func closingBracesInsideAStringDoNotEndTheExpression() throws {
    #expect(try evaluate("${{ '}}' + vars.name }}") == "}}Alice")
    #expect(try evaluate("a${{ '${{' }}b") == "a${{b")
  }

  @Test func offsetsCountUnicodeScalars() throws {
    let parsed = try template("é ${{ lowr('x') }}")
    let errors = parsed.check(functions: .standard, roots: EvaluationContext.standardRoots)
    #expect(errors.map(\.offset) == [6])
  }
}
