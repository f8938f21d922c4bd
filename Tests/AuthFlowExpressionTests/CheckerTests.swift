import AuthFlowCore
import AuthFlowExpression
import Testing

@Suite struct CheckerTests {
  let roots = EvaluationContext.standardRoots

  func check(_ text: String) throws -> [ExpressionError] {
    try template(text).check(functions: .standard, roots: roots)
  }

  @Test func validExpressionsHaveNoErrors() throws {
    #expect(try check("${{ lower(vars.user.email) == steps.login.id_token.claims.email && now() > 0 }}").isEmpty)
    #expect(try check("a ${{ env.HOME }} b ${{ matrix.browser }}").isEmpty)
  }

  @Test func everyProblemIsReported() throws {
    let text = "${{ lowr(varz.a) + len(1, 2) }} and ${{ nope }}"
    let marks = "    ^~~~ ^~~~      ^~~                  ^~~~"
    let errors = try check(text)
    #expect(
      errors.map(\.message) == [
        "unknown function 'lowr'", "unknown name 'varz'", "'len' takes 1 argument, but 2 were given",
        "unknown name 'nope'",
      ])
    #expect(errors.map(Caret.init) == carets(marks))
    #expect(errors[0].hint == "did you mean 'lower'?")
    #expect(errors[1].hint == "did you mean 'vars'?")
    #expect(errors[2].hint == "usage: len(value)")
  }

  @Test func unknownNameWithoutCloseMatchListsTheRoots() throws {
    let errors = try check("${{ zzzzzz }}")
    #expect(
      errors.first?.hint
        == "expressions start at one of 'client', 'credentials', 'env', 'matrix', 'scenario', 'steps', 'tenant', 'vars'"
    )
  }

  @Test func hyphenatedKeyGetsAHint() throws {
    let errors = try check("${{ steps.sign-up.status }}")
    #expect(errors.map(\.message) == ["unknown name 'up'"])
    #expect(errors.first?.hint == #"'-' subtracts; to read a key that contains '-', write steps["sign-up"].status"#)
  }

  @Test func invalidLiteralRegexIsReportedStatically() throws {
    let text = "${{ matches(vars.name, '(') }}"
    let marks = "                       ^~~"
    let errors = try check(text)
    #expect(errors.map(\.message) == ["argument 2 of 'matches' is not a valid regular expression"])
    #expect(errors.map(Caret.init) == [Caret(marks)])
  }

  @Test func arityIsCheckedAtRuntimeToo() {
    #expect(error(in: "${{ now(1) }}")?.message == "'now' takes no arguments, but 1 was given")
    #expect(error(in: "${{ contains('a') }}")?.message == "'contains' takes 2 arguments, but 1 was given")
  }

  // MARK: References

  @Test func referencesAreMaximalLiteralChains() throws {
    let text = "${{ steps.login.refresh_token != steps['sign-up'].body[0] && len(vars.list[vars.count]) > 0 }}"
    let marks = "    ^~~~~~~~~~~~~~~~~~~~~~~~~    ^~~~~~~~~~~~~~~~~~~~~~~~        ^~~~~~~~~ ^~~~~~~~~~"
    let references = try template(text).references
    #expect(
      references.map(\.description) == [
        "steps.login.refresh_token", "steps.sign-up.body.0", "vars.list", "vars.count",
      ])
    #expect(references.map(\.root) == ["steps", "steps", "vars", "vars"])
    #expect(references[1].path == ["sign-up", "body", "0"])
    #expect(references.map { Caret(offset: $0.offset, length: $0.length) } == carets(marks))
  }

  @Test func referencesOfInterpolatedStringsAndBareRoots() throws {
    let references = try template("${{ vars }} and ${{ jwt(steps.a.id_token).claims.sub }}").references
    #expect(references.map(\.description) == ["vars", "steps.a.id_token"])
    #expect(references[0].path.isEmpty)
  }

  /// A chain on the left of `||`, first in `default(…)` or compared with `null` is written to
  /// cope with its absence; anywhere else it is not.
  @Test func referencesKnowWhetherTheirAbsenceIsHandled() throws {
    let cases: [(String, [Bool])] = [
      ("${{ tenant.users.solo || tenant.users.alice }}", [true, false]),
      ("${{ default(vars.a.b, vars.c) }}", [true, false]),
      ("${{ vars.a == null && null != vars.b && vars.c != 'x' }}", [true, true, false]),
      ("${{ !vars.a || len(vars.b) }}", [false, false]),
      ("${{ (vars.a || vars.b).c }}", [true, false]),
      ("${{ vars.a }}", [false]),
    ]
    for (text, handled) in cases {
      #expect(try template(text).references.map(\.isAbsenceHandled) == handled, "\(text)")
    }
  }
}

/// Every `^~~` span in a caret line.
func carets(_ marks: String) -> [Caret] {
  var result: [Caret] = []
  let scalars = Array(marks.unicodeScalars)
  var index = 0
  while index < scalars.count {
    if scalars[index] == "^" {
      var length = 1
      while index + length < scalars.count, scalars[index + length] == "~" { length += 1 }
      result.append(Caret(offset: index, length: length))
      index += length
    } else {
      index += 1
    }
  }
  return result
}
