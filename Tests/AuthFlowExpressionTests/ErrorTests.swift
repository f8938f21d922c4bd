import AuthFlowCore
import AuthFlowExpression
import Testing

/// Each case: the input, a caret line marking where the error must point, and the message.
@Suite struct ErrorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let text: String
    let caret: String
    let message: String
    let hint: String?

    init(_ text: String, _ caret: String, _ message: String, hint: String? = nil) {
      self.text = text
      self.caret = caret
      self.message = message
      self.hint = hint
    }

    var testDescription: String { text }
  }

  @Test(arguments: [
    Case(
      "${{ (1 + ) }}",
      "         ^",
      "unexpected ')' — expected an expression"),
    Case(
      "x ${{ 'abc }}",
      "      ^~~~~~~",
      "unterminated string literal"),
    Case(
      "id: ${{ vars.user",
      "    ^~~",
      "'${{' is never closed — add '}}'"),
    Case(
      "${{ vars.count + }}",
      "                 ^~",
      "unexpected '}}' — expected an expression"),
    Case(
      "a ${{ vars.count + ",
      "  ^~~",
      "'${{' is never closed — add '}}'"),
    Case(
      "${{ a b }}",
      "      ^",
      "unexpected 'b' — expected an operator or '}}'"),
    Case(
      "${{ }}",
      "^~~~~~",
      "empty expression", hint: "write an expression between '${{' and '}}'"),
    Case(
      "${{ a = 1 }}",
      "      ^",
      "unexpected character '='", hint: "use '==' to compare"),
    Case(
      "${{ a & b }}",
      "      ^",
      "unexpected character '&'", hint: "use '&&' for 'and'"),
    Case(
      "${{ f(1, 2 }}",
      "           ^~",
      "unexpected '}}' — expected ',' or ')'"),
    Case(
      "${{ a[1 }}",
      "        ^~",
      "unexpected '}}' — expected ']'"),
    Case(
      "${{ a. }}",
      "       ^~",
      "unexpected '}}' — expected a member name after '.'"),
    Case(
      "${{ a.b() }}",
      "       ^",
      "unexpected '(' — only functions can be called", hint: "call a function by name, e.g. lower(x)"),
    Case(
      "${{ 5min }}",
      "    ^~~~",
      "invalid number '5min'", hint: "durations are written 250ms, 90s, 5m or 2h"),
    Case(
      "${{ 99999999999999999999 }}",
      "    ^~~~~~~~~~~~~~~~~~~~",
      "number '99999999999999999999' is too large"),
    Case(
      #"${{ '\u{zz}' }}"#,
      "     ^~~",
      "invalid unicode escape in a string literal", hint: #"write 1 to 8 hex digits of a code point, e.g. \u{e9}"#),
    Case(
      "${{ vars.count < 'x' }}",
      "               ^",
      "cannot compare int and string with '<'"),
    Case(
      "${{ 'a' < 1 }}",
      "        ^",
      "cannot compare string and int with '<'"),
    Case(
      "${{ vars.name + vars.missing }}",
      "              ^",
      "cannot apply '+' to string and null",
      hint: "a missing key reads as null; use default(x, fallback) to give it a value"),
    Case(
      "${{ 'a' - 1 }}",
      "        ^",
      "cannot apply '-' to string and int"),
    Case(
      "${{ -'a' }}",
      "    ^",
      "cannot apply '-' to string"),
    Case(
      "${{ vars.list[true] }}",
      "             ^~~~~~",
      "cannot use bool as an index", hint: "index arrays with an int and objects with a string"),
    Case(
      "${{ varz.x }}",
      "    ^~~~",
      "unknown name 'varz'", hint: "did you mean 'vars'?"),
    Case(
      "${{ lowr('A') }}",
      "    ^~~~",
      "unknown function 'lowr'", hint: "did you mean 'lower'?"),
    Case(
      "${{ lower('A', 'B') }}",
      "    ^~~~~",
      "'lower' takes 1 argument, but 2 were given", hint: "usage: lower(text)"),
    Case(
      "${{ a § b }}",
      "      ^",
      "unexpected character '§'"),
    Case(
      "😀 ${{ 'ü' < 1 }}",
      "          ^",
      "cannot compare string and int with '<'"),
    Case(
      "é ${{ 'ü\\q' + lowr('x') }}",
      "              ^~~~",
      "unknown function 'lowr'", hint: "did you mean 'lower'?"),
    Case(
      "${{ 9223372036854775807 + 1 }}",
      "                        ^",
      "integer overflow in '+'"),
  ])
  func errorIsLocated(_ expected: Case) throws {
    let failure = try #require(error(in: expected.text))
    #expect(failure.message == expected.message)
    #expect(Caret(failure) == Caret(expected.caret), "\n\(expected.text)\n\(Caret(failure))")
    if let hint = expected.hint { #expect(failure.hint == hint) }
  }

  @Test func bareExpressionErrors() {
    guard case .failure(let failure) = Expr.parse("a +") else {
      Issue.record("expected a failure")
      return
    }
    #expect(failure.message == "unexpected end of text — expected an expression")
    #expect(failure.offset == 3)
    guard case .failure(let closing) = Expr.parse("a }}") else {
      Issue.record("expected a failure")
      return
    }
    #expect(closing.message == "unexpected '}}' — expected an operator or the end of the expression")
  }

  @Test func unknownNameAtRuntimeSuggestsFromTheContextRoots() {
    let failure = error(in: "${{ step.login }}")
    #expect(failure?.message == "unknown name 'step'")
    #expect(failure?.hint == "did you mean 'steps'?")
  }
}
