import AuthFlowCore
import AuthFlowExpression
import Testing

@Suite struct EvaluationTests {
  // MARK: Types

  @Test(
    arguments: [
      ("${{ vars.count }}", Value.int(3)),
      ("${{ vars.ratio }}", 0.5),
      ("${{ vars.count == 3 }}", true),
      ("${{ vars.list }}", [1, 2, 3]),
      ("${{ vars.user.email }}", "alice@example.com"),
      ("${{ vars.nothing }}", nil),
      ("${{ steps['sign-up'] }}", ["status": 201]),
    ] as [(String, Value)])
  func wholeExpressionKeepsItsType(text: String, value: Value) throws {
    #expect(try evaluate(text) == value)
  }

  @Test(
    arguments: [
      ("n=${{ vars.count }}", Value.string("n=3")),
      ("${{ vars.ratio }}s", "0.5s"),
      ("${{ 2.0 }}|${{ true }}|${{ null }}|", "2|true||"),
      ("list ${{ vars.list }}", "list [1,2,3]"),
      ("obj ${{ steps['sign-up'] }}", #"obj {"status":201}"#),
      ("${{ vars.name }} <${{ vars.user.email }}>", "Alice <alice@example.com>"),
      ("${{ 90s }} seconds", "90 seconds"),
    ] as [(String, Value)])
  func interpolationGivesAString(text: String, value: Value) throws {
    #expect(try evaluate(text) == value)
  }

  // MARK: Operators

  @Test(
    arguments: [
      ("1 == 1", Value.bool(true)),
      ("1 == 1.0", true),
      ("1 != 2", true),
      ("'a' == 'a'", true),
      ("'1' == 1", false),
      ("null == null", true),
      ("vars.missing == null", true),
      ("[1, 'a'] == [1.0, 'a']", true),
      ("json('{\"a\": [1]}') == json('{\"a\": [1.0]}')", true),
      ("true != false", true),
      ("1 < 2", true),
      ("2 <= 2", true),
      ("3 > 2.5", true),
      ("2.5 >= 3", false),
      ("'abc' < 'abd'", true),
      ("vars.count > 2 && vars.count < 4", true),
      ("1 + 2", 3),
      ("1 + 0.5", 1.5),
      ("'a' + 'b'", "ab"),
      ("'n=' + 3", "n=3"),
      ("3 + 'x'", "3x"),
      ("'flag ' + true", "flag true"),
      ("[1] + [2]", [1, 2]),
      ("5 - 7", -2),
      ("5 - 0.5", 4.5),
      ("-vars.count", -3),
      ("-(1 - 3)", 2),
      ("!true", false),
      ("!vars.empty", true),
      ("!vars.nothing", true),
      ("!vars.list", false),
      ("true && 'x'", "x"),
      ("0 && 'x'", 0),
      ("vars.nothing || 'fallback'", "fallback"),
      ("vars.name || 'fallback'", "Alice"),
      ("false || false", false),
      ("now() + 5m > now()", true),
      ("5m == 300", true),
    ] as [(String, Value)])
  func operators(source: String, value: Value) throws {
    #expect(try evaluateBare(source) == value)
  }

  @Test func logicalOperatorsShortCircuit() throws {
    #expect(try evaluateBare("false && nope()") == false)
    #expect(try evaluateBare("true || nope()") == true)
  }

  // MARK: Member and index access

  @Test(
    arguments: [
      ("vars.user.email", Value.string("alice@example.com")),
      ("vars['user']['email']", "alice@example.com"),
      ("vars.list[0]", 1),
      ("vars.list[-1]", 3),
      ("vars.list.1", 2),
      ("vars.list[1.0]", 2),
      ("vars.list.length", 3),
      ("vars.list[9]", nil),
      ("vars.missing", nil),
      ("vars.missing.deeper.still", nil),
      ("vars.name.length", nil),
      ("vars.count.x", nil),
      ("vars.list['x']", nil),
      ("vars[null]", nil),
      ("steps.login.refresh_token == null", false),
      ("steps.logout.refresh_token == null", true),
      ("steps['sign-up'].status", 201),
      ("matrix.browser", "chrome"),
      ("env.HOME", "/root"),
    ] as [(String, Value)])
  func access(source: String, value: Value) throws {
    #expect(try evaluateBare(source) == value)
  }

  @Test func jwtMembers() throws {
    #expect(try evaluateBare("steps.login.id_token.claims.sub") == "auth0|123")
    #expect(try evaluateBare("steps.login.id_token.header.alg") == "RS256")
    #expect(try evaluateBare("steps.login.id_token.signature_valid") == nil)
    #expect(try evaluateBare("jwt('\(sampleJWT)').claims.aud") == "app")
    #expect(try evaluateBare("steps.login.id_token == '\(sampleJWT)'") == true)
    #expect(try evaluateBare("'\(sampleJWT)' == steps.login.id_token") == true)
  }

  @Test func parseOnceEvaluateMany() throws {
    let parsed = try template("${{ vars.count + 1 }}")
    for count in 0..<100 {
      var roots = sampleRoots
      roots["vars"] = ["count": .int(count)]
      #expect(try parsed.evaluate(in: EvaluationContext(roots: roots)) == .int(count + 1))
    }
  }
}
