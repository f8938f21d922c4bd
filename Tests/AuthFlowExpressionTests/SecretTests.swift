import AuthFlowCore
import AuthFlowExpression
import Testing

@Suite struct SecretTests {
  @Test(
    arguments: [
      ("${{ vars.user.password }}", Value.secret("hunter2")),
      ("pw=${{ vars.user.password }}", .secret("pw=hunter2")),
      ("${{ 'pw=' + vars.user.password }}", .secret("pw=hunter2")),
      ("${{ vars.user.password + 1 }}", .secret("hunter21")),
      ("${{ lower(vars.user.password) }}", .secret("hunter2")),
      ("${{ upper(steps.login.refresh_token) }}", .secret("RT-123")),
      ("Bearer ${{ steps.login.id_token }}", .secret(.string("Bearer \(sampleJWT)"))),
      ("${{ string(steps.login.id_token) }}", .secret(.string(sampleJWT))),
      ("${{ to_json(vars.user) }}", .secret(#"{"email":"alice@example.com","password":"hunter2"}"#)),
      ("${{ vars.user }}!", .secret(#"{"email":"alice@example.com","password":"hunter2"}!"#)),
      ("${{ secret(vars.count) + 1 }}", .secret(4)),
      ("${{ secret(json('{\"a\": 1}')).a }}", .secret(1)),
    ] as [(String, Value)])
  func derivedValuesStaySecret(text: String, value: Value) throws {
    #expect(try evaluate(text) == value)
  }

  @Test(
    arguments: [
      ("${{ vars.user.password == 'hunter2' }}", Value.bool(true)),
      ("${{ steps.login.refresh_token != null }}", true),
      ("${{ len(vars.user.password) }}", 7),
      ("${{ contains(vars.user.password, 'hunt') }}", true),
      ("${{ starts_with(vars.user.password, 'h') }}", true),
      ("${{ matches(vars.user.password, '[0-9]$') }}", true),
      ("${{ vars.user.password < 'z' }}", true),
      ("${{ !vars.user.password }}", false),
      ("${{ steps.login.id_token.claims.sub }}", "auth0|123"),
    ] as [(String, Value)])
  func booleansAndLengthsArePlain(text: String, value: Value) throws {
    #expect(try evaluate(text) == value)
  }

  @Test func plainInterpolationIsPlain() throws {
    #expect(try evaluate("${{ vars.name }}-${{ vars.count }}") == "Alice-3")
  }

  @Test func errorMessagesNeverContainTheSecret() {
    let failure = error(in: "${{ jwt(vars.user.password) }}")
    #expect(failure != nil)
    #expect(failure?.description.contains("hunter2") == false)
    let comparison = error(in: "${{ vars.user.password < 1 }}")
    #expect(comparison?.message == "cannot compare string and int with '<'")
  }
}
