import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct ScenarioValidatorTests {
  @Test func unknownNeedsWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          logout:
        - needs: [1️⃣logn]
          logout:
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "step 'step-2' needs 'logn', but there is no step with that id",
      hint: "did you mean 'login'?")
  }

  @Test func cycleIsReportedOnceWithItsPath() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: a
          needs: [b]
          logout:
        - id: b
          needs: [1️⃣a]
          logout:
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "steps wait for each other in a cycle: a → b → a",
      hint: "each step needs the next one; remove one of these from 'needs' to break the cycle")
    #expect(found.count == 1)
  }

  @Test func cycleThroughListOrder() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: a
          logout:
        - id: b
          needs: [1️⃣c]
          logout:
        - id: c
          logout:
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "cycle: b → c → b")
  }

  @Test func stepThatNeedsItself() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: a
          needs: 1️⃣a
          logout:
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "step 'a' needs itself")
  }

  @Test func referenceToAStepThatDoesNotRunBefore() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: a
          logout:
        - id: b
          needs: [a]
          renew: { refresh_token: "${{ 1️⃣steps.c.refresh_token }}" }
        - id: 2️⃣c
          needs: [a]
          logout:
      """)
    let found = expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "step 'b' refers to steps.c, but 'c' does not run before 'b'",
      hint: "add 'c' to the 'needs' of 'b'")
    #expect(found?.length == "steps.c.refresh_token".count)
    #expect(found?.notes.first?.location?.line == input["2️⃣"].line)
  }

  @Test func referencesToAncestorsAndOwnResultAreFine() {
    let input = MarkedText(
      """
      scenario: x
      vars:
        n: ${{ len("abc") }}
      steps:
        - id: login
          web_auth: { scope: openid }
          retry: { until: "${{ steps.login.access_token != null }}" }
          expect:
            access_token: { exists: true }
          save:
            token: ${{ steps.login.access_token }}
        - id: renew
          renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        - renew: { refresh_token: "${{ steps.renew.refresh_token }} and ${{ steps.login.refresh_token }}" }
      cleanup:
        - http: { url: "https://example.com/${{ steps.renew.access_token }}" }
      """)
    expectClean(diagnostics(input))
  }

  @Test func unknownAndGeneratedStepReferences() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          logout:
        - http: { url: "${{ 1️⃣steps.logn.url }}" }
        - http: { url: "${{ 2️⃣steps['step-2'].url }}" }
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "step 'step-2' refers to steps.logn, but there is no step 'logn'",
      hint: "did you mean 'login'?")
    expectDiagnostic(
      found, at: input["2️⃣"], "'step-2' is a generated id and cannot be referred to",
      hint: "give that step an 'id:' and use it here")
  }

  @Test func ownResultBeforeTheStepRan() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: a
          if: ${{ 1️⃣steps.a.status == 200 }}
          logout:
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "step 'a' refers to its own result in its 'if'")
  }

  @Test func mainStepsCannotReachCleanupAndVarsCannotReadSteps() {
    let input = MarkedText(
      """
      scenario: x
      vars:
        early: ${{ 1️⃣steps.a.status }}
      steps:
        - id: a
          needs: [2️⃣tidy]
          http: { url: "${{ 3️⃣steps.tidy.url }}" }
      cleanup:
        - id: tidy
          logout:
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'vars' refers to steps.a, but 'vars' is evaluated before any step runs")
    expectDiagnostic(found, at: input["2️⃣"], "step 'a' needs the cleanup step 'tidy'")
    expectDiagnostic(found, at: input["3️⃣"], "step 'a' refers to the cleanup step 'tidy'")
  }

  @Test func expressionSyntaxErrorsAreLocatedInsideTheString() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - http: { url: "https://x/${{ vars.a +1️⃣ }}" }
        - http:
            url: ${{ 2️⃣nope.x }}
        - http: { url: "${{ 3️⃣lenn(vars.a) }}" }
      """)
    let found = diagnostics(input)
    #expect(found.contains { $0.location?.line == input["1️⃣"].line && $0.message.hasPrefix("invalid expression") })
    expectDiagnostic(found, at: input["2️⃣"], "nope")
    expectDiagnostic(found, at: input["3️⃣"], "lenn", hint: "did you mean 'len'?")
  }

  @Test func saveNamesThatCollide() {
    let input = MarkedText(
      """
      scenario: x
      vars:
        2️⃣token: a
      steps:
        - id: a
          logout:
          save: { 1️⃣first: x }
        - id: b
          logout:
          save: { 3️⃣first: y, 4️⃣token: z }
      """)
    let found = diagnostics(input)
    let duplicate = expectDiagnostic(found, at: input["3️⃣"], "'first' is already saved by step 'a'")
    #expect(duplicate?.notes.first?.location?.line == input["1️⃣"].line)
    let shadow = expectDiagnostic(
      found, at: input["4️⃣"], "'token' overwrites the var declared under 'vars'", severity: .warning)
    #expect(shadow?.notes.first?.location?.line == input["2️⃣"].line)
  }

  @Test func varsAndMatrixNamesMustExist() {
    let input = MarkedText(
      """
      scenario: x
      vars:
        a: ${{ 1️⃣vars.b }}
        b: 1
      matrix:
        browser: [chrome]
      steps:
        - id: s
          http: { url: "${{ 2️⃣matrix.browsr }}/${{ 3️⃣vars.tokn }}/${{ vars.saved }}" }
          save: { saved: "${{ steps.s.body }}", token: x }
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "vars.b is read before it is declared")
    expectDiagnostic(found, at: input["2️⃣"], "matrix.browsr is not a matrix axis", hint: "did you mean 'browser'?")
    expectDiagnostic(
      found, at: input["3️⃣"], "vars.tokn is neither declared under 'vars' nor saved by a step",
      hint: "did you mean 'token'?")
    #expect(found.count == 3)
  }

  /// `tenant`, `tenant.endpoints` and `scenario` have fixed members: a typo would read as null
  /// and make a negated check hold whatever the tenant answers, so it is an error.
  @Test func membersOfTheFixedRootsMustExist() {
    let input = MarkedText(
      """
      scenario: x
      vars:
        who: ${{ 1️⃣tenant.user.alice }}
      steps:
        - id: s
          http: { url: "${{ 2️⃣tenant.endpoints.tokne }}" }
          expect:
            body.iss: { not_equals: "${{ 3️⃣tenant.issuerr }}" }
            body.name: { not_equals: "${{ 4️⃣scenario.nmae }}" }
            body.fine: "${{ tenant.endpoints.token }} ${{ tenant.users.anyone.email }} ${{ scenario.tags }} ${{ tenant.settings.x }}"
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"],
      "tenant has no member 'user' (it has: name, kind, base_url, issuer, clients, users, capabilities, settings, endpoints, inbox)",
      hint: "did you mean 'users'?")
    expectDiagnostic(
      found, at: input["2️⃣"],
      "tenant.endpoints has no member 'tokne' (it has: discovery, authorization, token, userinfo, revocation, end_session, logout, jwks)",
      hint: "did you mean 'token'?")
    expectDiagnostic(
      found, at: input["3️⃣"],
      "tenant has no member 'issuerr' (it has: name, kind, base_url, issuer, clients, users, capabilities, settings, endpoints, inbox)",
      hint: "did you mean 'issuer'?")
    expectDiagnostic(
      found, at: input["4️⃣"], "scenario has no member 'nmae' (it has: name, title, file, tags)",
      hint: "did you mean 'name'?")
    #expect(found.count == 4, "\(found.map(\.message))")
  }

  /// `tenant.users.NAME` and `tenant.clients.NAME` are found in every part of a scenario that
  /// holds expressions — vars, matrix, parameters, `if`, `retry.until`, `expect`, `save`,
  /// cleanup — in source order, the same as over the step templates every other check reads.
  @Test func profileReadsAreFoundInEveryPart() throws {
    let input = MarkedText(
      """
      scenario: x
      vars:
        a: ${{ tenant.users.u1.email }}
      matrix:
        m: ["${{ tenant.clients.c1.client_id }}"]
      steps:
        - id: s
          http: { url: "${{ tenant.users.u2 }}" }
          if: ${{ tenant.users.u3.name == 'x' }}
          retry: { until: "${{ tenant.clients.c2.client_id == 'y' }}" }
          expect: { body.a: { not_equals: "${{ tenant.users.u4.email }}" } }
          save: { b: "${{ tenant.users.u5 }}" }
      cleanup:
        - id: t
          http: { url: "${{ tenant.clients.c3.redirect_uri }} ${{ tenant.users.fallback || tenant.users.u6 }}" }
      """)
    let (scenario, found) = load(input)
    #expect(!found.hasErrors, "\(found.map(\.message))")
    let references = try #require(scenario).tenantProfileReferences
    #expect(references.map(\.name) == ["u1", "c1", "u2", "u3", "c2", "u4", "u5", "c3", "u6"])
    #expect(
      references.map(\.field) == ["email", "client_id", nil, "name", "client_id", "email", nil, "redirect_uri", nil])
    #expect(references.map(\.location.line) == [3, 5, 8, 9, 10, 11, 12, 15, 15])
  }

  /// The `env.NAME` reads a run checks against the environment are found in the same parts, in
  /// source order, but those of a step's `if:` (an unset variable there means "off") and those
  /// written to cope with the variable's absence.
  @Test func environmentReadsAreFoundInEveryPartButConditions() throws {
    let input = MarkedText(
      """
      scenario: x
      vars:
        a: ${{ env.V1 }}
      matrix:
        m: ["${{ env.V2 }}"]
      steps:
        - id: s
          http: { url: "${{ env.V3 }}" }
          if: ${{ env.OFF == 'yes' }}
          retry: { until: "${{ env.V4 == 'y' }}" }
          expect: { body.a: { not_equals: "${{ env.V5 }}" } }
          save: { b: "${{ default(env.OPTIONAL, 'z') }} ${{ env.V6 }}" }
      cleanup:
        - id: t
          http: { url: "${{ env.ALSO_OPTIONAL || env.V7 }} ${{ env.MAYBE != null }}" }
      """)
    let (scenario, found) = load(input)
    #expect(!found.hasErrors, "\(found.map(\.message))")
    let reads = try #require(scenario).environmentReads
    #expect(reads.map(\.name) == ["V1", "V2", "V3", "V4", "V5", "V6", "V7"])
    #expect(reads.map(\.location.line) == [3, 5, 8, 10, 11, 12, 15])
  }
}
