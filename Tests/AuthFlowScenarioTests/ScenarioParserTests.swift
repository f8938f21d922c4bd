import AuthFlowCore
import AuthFlowTestSupport
import Testing

@testable import AuthFlowScenario

@Suite struct ScenarioParserTests {
  @Test func readsEveryKeyOfDesignSection2() throws {
    let input = MarkedText(
      """
      # yaml-language-server: $schema=../schemas/scenario.schema.json
      1️⃣scenario: Refresh tokens rotate
      description: Renewal gives a new refresh token.
      tags: [renew, smoke]
      requires: [refresh_token_rotation]
      tenant: staging
      client: native
      timeout: 2m
      vars:
        user: alice
        count: 3
      matrix:
        browser: [chrome, firefox]
      steps:
        - 2️⃣id: login
          name: Log in
          web_auth:
            scope: openid profile email offline_access
            login: { email: a@example.com, password: secret }
          timeout: 30s
          expect:
            id_token.claims.email: a@example.com
            refresh_token: { exists: true }
            status: { gte: 200, lt: 300 }
          save:
            first_token: token
        - id: renew
          needs: [login]
          if: true
          retry: { attempts: 5, delay: 500ms, backoff: 2 }
          renew: { refresh_token: abc }
        - 3️⃣wait: 2s
      cleanup:
        - logout:
      """)
    let (parsed, diagnostics) = load(input)
    expectClean(diagnostics)
    let scenario = try #require(parsed)
    #expect(scenario.title.value == "Refresh tokens rotate")
    #expect(scenario.location.line == input["1️⃣"].line)
    #expect(scenario.description == "Renewal gives a new refresh token.")
    #expect(scenario.tags.map(\.value) == ["renew", "smoke"])
    #expect(scenario.requires.map(\.value) == ["refresh_token_rotation"])
    #expect(scenario.tenant?.value == "staging")
    #expect(scenario.client?.value == "native")
    #expect(scenario.timeout?.value == .seconds(120))
    #expect(scenario.vars.map(\.name.value) == ["user", "count"])
    #expect(scenario.matrix.first?.labels == ["chrome", "firefox"])
    #expect(scenario.steps.map(\.id.value) == ["login", "renew", "step-3"])
    #expect(scenario.steps.map(\.hasExplicitID) == [true, true, false])
    #expect(scenario.cleanup.map(\.id.value) == ["cleanup-1"])
    #expect(scenario.cleanup.first?.action.name.value == "logout")

    let login = scenario.steps[0]
    #expect(login.location.line == input["2️⃣"].line && login.location.column == input["2️⃣"].column)
    #expect(login.name == "Log in")
    #expect(login.action.name.value == "web_auth")
    #expect(login.action.parameters.member("login")?.member("email")?.literalValue == "a@example.com")
    #expect(login.timeout?.value == .seconds(30))
    #expect(login.expectations.map(\.path.value) == ["id_token.claims.email", "refresh_token", "status"])
    #expect(login.expectations[0].matchers.map(\.kind) == [.equals])
    #expect(login.expectations[1].matchers.map(\.kind) == [.exists])
    #expect(login.expectations[2].matchers.map(\.kind) == [.gte, .lt])
    #expect(login.save.map(\.name.value) == ["first_token"])
    #expect(login.needs == nil)

    let renew = scenario.steps[1]
    #expect(renew.needs?.map(\.value) == ["login"])
    #expect(renew.conditionText == "true")
    #expect(renew.retry?.attempts == 5)
    #expect(renew.retry?.delay == .milliseconds(500))
    #expect(renew.retry?.backoff == 2)

    let wait = scenario.steps[2]
    #expect(wait.action.name.value == "wait")
    #expect(wait.action.parameters.literalValue == "2s")
    #expect(wait.id.location.line == input["3️⃣"].line)
  }

  @Test func aSingleStringIsAOneItemList() throws {
    let (scenario, diagnostics) = load(
      MarkedText(
        """
        scenario: x
        tags: smoke
        steps:
          - id: a
            logout:
          - needs: a
            logout:
        """))
    expectClean(diagnostics)
    #expect(scenario?.tags.map(\.value) == ["smoke"])
    #expect(scenario?.steps[1].needs?.map(\.value) == ["a"])
  }

  @Test func retryDefaultsToThreeAttemptsWithoutDelay() throws {
    let (scenario, diagnostics) = load(
      MarkedText(
        """
        scenario: x
        steps:
          - http: { url: "https://example.com" }
            retry: { until: true }
        """))
    expectClean(diagnostics)
    let retry = try #require(scenario?.steps.first?.retry)
    #expect(retry.attempts == 3)
    #expect(retry.delay == .zero)
    #expect(retry.backoff == 1)
    #expect(retry.until?.literalValue == true)
  }

  @Test func expectPathsWithBracketsKeepDottedKeysWhole() throws {
    let (scenario, diagnostics) = load(
      MarkedText(
        """
        scenario: x
        steps:
          - http: { url: "https://example.com" }
            expect:
              'id_token.claims["https://example.com/roles"][0]': admin
        """))
    expectClean(diagnostics)
    #expect(
      scenario?.steps.first?.expectations.first?.components == ["id_token", "claims", "https://example.com/roles", "0"])
  }

  @Test func withoutACatalogAnyActionIsAccepted() throws {
    let (scenario, diagnostics) = load(
      MarkedText(
        """
        scenario: x
        steps:
          - anything_goes: { at: all }
        """), catalog: nil)
    expectClean(diagnostics)
    #expect(scenario?.steps.first?.action.name.value == "anything_goes")
  }

  @Test func nullParametersBecomeAnEmptyObject() throws {
    let (scenario, _) = load(
      MarkedText(
        """
        scenario: x
        steps:
          - logout:
        """))
    #expect(scenario?.steps.first?.action.parameters.members?.isEmpty == true)
  }
}
