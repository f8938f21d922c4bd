import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// `not_contains`, `not_matches` and `not_one_of`, run by the interpreter against a `set` step's
/// result (no tenant is contacted): each holds where its positive form does not, and fails with
/// the positive form's wording negated.
@Suite struct NegatedMatcherTests {
  private func messages(_ expect: String) async throws -> [String] {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Negated matchers
      steps:
        - id: values
          set:
            scope: openid profile
            roles: [admin, user]
            state: active
            count: 3
          expect: \(expect)
      """)
    return report.steps.flatMap(\.problems).map(\.message)
  }

  /// Expects each step of `ids` to have failed with one evaluation problem whose message starts
  /// with `prefix`.
  private func expectEvaluationProblem(
    _ prefix: String, steps ids: [String], in report: ScenarioReport,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    for id in ids {
      let problems = try #require(report.step(id), sourceLocation: sourceLocation).problems
      #expect(problems.map(\.kind) == [.evaluation], "\(id)", sourceLocation: sourceLocation)
      #expect(problems.first?.message.hasPrefix(prefix) == true, "\(id)", sourceLocation: sourceLocation)
    }
  }

  @Test func notContainsHoldsForAStringAListAndAnAbsentValue() async throws {
    let found = try await messages(
      "{ scope: { not_contains: email }, roles: { not_contains: owner }, missing: { not_contains: x } }")
    #expect(found == [])
  }

  @Test func notContainsFailsWhenTheValueContainsIt() async throws {
    let found = try await messages("{ scope: { not_contains: profile }, roles: { not_contains: admin } }")
    #expect(
      found == [
        "expected scope not to contain \"profile\", found \"openid profile\"",
        "expected roles not to contain \"admin\", found [\"admin\",\"user\"]",
      ])
  }

  @Test func notMatchesHoldsWhenNothingMatches() async throws {
    let found = try await messages(#"{ state: { not_matches: '^dis' }, count: { not_matches: '\d' } }"#)
    #expect(found == [])
  }

  @Test func notMatchesFailsWhenTheRegexMatches() async throws {
    let found = try await messages("{ state: { not_matches: '^act' } }")
    #expect(found == ["expected state not to match \"^act\", found \"active\""])
  }

  @Test func notOneOfHoldsWhenNoElementIsEqual() async throws {
    let found = try await messages("{ state: { not_one_of: [disabled, blocked] }, count: { not_one_of: [1, 2] } }")
    #expect(found == [])
  }

  @Test func notOneOfFailsWhenAnElementIsEqual() async throws {
    let found = try await messages("{ state: { not_one_of: [blocked, active] }, count: { not_one_of: [3.0] } }")
    #expect(
      found == [
        "expected state not to be one of [\"blocked\",\"active\"], found \"active\"",
        "expected count not to be one of [3], found 3",
      ])
  }

  @Test func typeSecretAndStringComparisons() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Secrets and ordered strings
      steps:
        - id: values
          set:
            hidden: ${{ secret('p4ssw0rd') }}
            plain: visible
            day: '2024-06-01'
          expect:
            hidden: { type: secret }
            day: { gt: '2024-01-01', lt: '2024-12-31' }
        - id: failing
          set:
            plain: visible
            day: '2024-06-01'
            count: 3
          expect:
            plain: { type: secret }
            day: { gte: '2025-01-01' }
            count: { type: "${{ 'integer' }}" }
      """)
    #expect(report.step("values")?.problems.map(\.message) == [])
    #expect(
      report.step("failing")?.problems.map(\.message) == [
        "expected plain to have type \"secret\", found \"visible\"",
        "expected day to be at least \"2025-01-01\", found \"2024-06-01\"",
        "expected count to have type \"integer\" (not a type name; the types are \(Matcher.typeNames.joined(separator: ", "))), found 3",
      ])
  }

  /// A negated matcher whose operand is an expression that read nothing held whatever the answer:
  /// `refresh_token: { not_equals: "${{ steps.login.body.refresh_tokn }}" }` (a typo in an open
  /// body) "verified" rotation against any token. Each negated matcher now refuses such an
  /// operand; a literal `null` is still a comparison with null, and the positive forms are as
  /// before.
  @Test func aNegatedMatcherAgainstAnOperandThatReadNothingFails() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Negated against nothing
      steps:
        - id: login
          set: { body: { refresh_token: rt-1 } }
        - id: renew
          set: { refresh_token: rt-1, scope: openid, roles: [admin] }
          expect:
            refresh_token: { not_equals: "${{ steps.login.body.refresh_tokn }}" }
            scope: { not_contains: "${{ steps.login.body.scpe }}", not_matches: "${{ steps.login.nothing }}" }
            roles: { not_one_of: "${{ steps.login.body.roles }}", not_starts_with: "${{ steps.login.body.nothing }}" }
        - id: explicit
          set: { refresh_token: rt-1 }
          expect:
            refresh_token: { not_equals: null, equals: "${{ steps.login.body.refresh_token }}" }
            missing: { equals: "${{ steps.login.body.missing }}" }
      """)
    let problems = try #require(report.step("renew")).problems
    #expect(problems.map(\.kind) == Array(repeating: .evaluation, count: 5))
    #expect(
      problems.map { $0.message.components(separatedBy: " read nothing").first ?? "" } == [
        "the operand of not_equals", "the operand of not_contains", "the operand of not_matches",
        "the operand of not_one_of", "the operand of not_starts_with",
      ])
    #expect(problems.allSatisfy { $0.message.contains("holds whatever the tenant answers") })
    #expect(problems.map { $0.location?.line } == [8, 9, 9, 10, 10])
    #expect(report.step("renew")?.status == .failed)
    #expect(report.step("explicit")?.problems.map(\.message) == [])
  }

  /// The expression form: `assert: ${{ steps.renew.refresh_token != steps.login.refresh_token }}`
  /// held when the refresh answered no token (`null != "rt-1"`). A top-level `!=` of a condition
  /// with a side that read nothing now fails the step; a side written as `null` is a presence
  /// check and stays, and two values that are there compare as before.
  @Test func anInequalityAgainstAValueThatReadNothingFails() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Inequality against nothing
      steps:
        - id: login
          set: { refresh_token: rt-1 }
        - id: renew
          set: { access_token: at-2 }
        - id: rotated
          assert: ${{ steps.renew.refresh_token != steps.login.refresh_token }}
        - id: rotated_form
          needs: [renew]
          assert: { that: "${{ steps.login.refresh_token != steps.renew.refresh_token }}", message: rotated }
        - id: present
          needs: [renew]
          assert: ${{ steps.renew.access_token != null }}
        - id: differs
          needs: [renew]
          assert: ${{ steps.renew.access_token != steps.login.refresh_token }}
        - id: same
          needs: [renew]
          assert: ${{ steps.login.refresh_token != steps.login.refresh_token }}
      """)
    try expectEvaluationProblem(
      "one side of an inequality read nothing", steps: ["rotated", "rotated_form"], in: report)
    #expect(report.step("rotated")?.problems.first?.location?.line == 8)
    #expect(report.step("present")?.problems.map(\.message) == [])
    #expect(report.step("differs")?.problems.map(\.message) == [])
    #expect(report.step("same")?.problems.map(\.message) == ["assertion failed: the condition is false"])
  }

  /// A positive matcher whose operand is a name of what the tenant answered that read nothing
  /// compares with `null`: it held against a `null` the tenant sent (`token: { equals: "${{
  /// steps.a.body.tokn }}" }`), and failed elsewhere saying "to equal null". It is an evaluation
  /// problem at the name; `equals: null` and `default(…, null)` compare with null on purpose.
  @Test func aPositiveMatcherWhoseOperandReadNothingFails() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Positive operands reading nothing
      steps:
        - id: a
          set: { body: { token: tok-1 } }
        - id: b
          set: { token: null, other: tok-1 }
          expect:
            token: { equals: "${{ steps.a.body.tokn }}" }
            other: { one_of: ["${{ steps.a.body.token }}"] }
        - id: on_purpose
          needs: [a]
          set: { token: null, token2: null }
          expect:
            token: { equals: null }
            token2: { equals: "${{ default(steps.a.body.tokn, null) }}" }
      """)
    try expectEvaluationProblem("the operand of equals read nothing", steps: ["b"], in: report)
    #expect(report.step("b")?.problems.count == 1)
    #expect(report.step("b")?.problems.first.flatMap { $0.location.map { [$0.line, $0.column] } } == [8, 29])
    #expect(report.step("on_purpose")?.status == .passed, "\(report.step("on_purpose")?.problems ?? [])")
  }

  /// The same inside a condition: `a != null && b != a` (the bundled api-credentials scenario's
  /// shape) held with `b` missing, and `!(a == b)` is `a != b`. The walk follows `&&`, `||` and
  /// `!` as evaluation does, so a guard that short-circuits (`b != null && b != a`) is not
  /// reached, and neither is an inequality after a `||` that already held.
  @Test func anInequalityInsideAConditionAgainstAValueThatReadNothingFails() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Inequality inside a condition
      steps:
        - id: login
          set: { refresh_token: rt-1 }
        - id: renew
          set: { access_token: at-2 }
        - id: after_and
          assert: ${{ steps.login.refresh_token != null && steps.renew.refresh_token != steps.login.refresh_token }}
        - id: both_missing
          needs: [renew]
          assert: ${{ steps.renew.refresh_token == steps.renew.rt && steps.renew.refresh_token != steps.login.refresh_token }}
        - id: after_or
          needs: [renew]
          assert: ${{ steps.renew.access_token == 'x' || steps.renew.refresh_token != steps.login.refresh_token }}
        - id: de_morgan
          needs: [renew]
          assert: ${{ !(steps.renew.refresh_token == steps.login.refresh_token) }}
        - id: twice_negated
          needs: [renew]
          assert: ${{ !!(steps.login.refresh_token != steps.renew.refresh_token) }}
        - id: guarded
          needs: [renew]
          assert: ${{ steps.renew.refresh_token != null && steps.renew.refresh_token != steps.login.refresh_token }}
        - id: absent_on_purpose
          needs: [renew]
          assert: ${{ steps.renew.refresh_token == null || steps.renew.refresh_token != steps.login.refresh_token }}
        - id: or_held_first
          needs: [renew]
          assert: ${{ steps.renew.access_token == 'at-2' || steps.renew.refresh_token != steps.login.refresh_token }}
        - id: negated_inequality
          needs: [renew]
          assert: ${{ !(steps.renew.refresh_token != steps.login.refresh_token) }}
      """)
    try expectEvaluationProblem(
      "one side of an inequality read nothing",
      steps: ["after_and", "both_missing", "after_or", "de_morgan", "twice_negated"], in: report)
    // At the inequality, not at the condition's start.
    let location = try #require(report.step("after_and")?.problems.first?.location)
    #expect(location.line == 8)
    #expect(location.column == 80)  // the second !=, not the guard
    #expect(report.step("guarded")?.problems.map(\.message) == ["assertion failed: the condition is false"])
    #expect(report.step("absent_on_purpose")?.problems.map(\.message) == [])
    #expect(report.step("or_held_first")?.problems.map(\.message) == [])
    #expect(report.step("negated_inequality")?.problems.map(\.message) == ["assertion failed: the condition is false"])
  }

  /// An `if:` that came out false because a name read nothing skipped its step, and its checks,
  /// without a word: `steps.a.body.stat == 'active'` (a misspelt `state` in an open body) is false
  /// whatever the tenant answered, and the run passed. The step now fails at the name. A condition
  /// that says absence is expected — compared with `null`, the left of `||`, inside `default(…)` —
  /// a function's own `null`, an unset `env` variable or tenant setting (which mean "off"), or a
  /// name under a step that did not run (skipped by its own `if:`: "if it ran") still skips, and a
  /// condition that comes out true runs the step (its checks judge).
  @Test func aFalseIfDecidedByANameThatReadNothingFailsTheStep() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Conditions decided by nothing
      steps:
        - id: a
          set: { body: { state: active, level: 1 } }
        - { id: misspelt, needs: [a], if: "${{ steps.a.body.stat == 'active' }}", set: { x: 1 } }
        - { id: bare, needs: [a], if: "${{ steps.a.body.enabeld }}", set: { x: 1 } }
        - { id: negated, needs: [a], if: "${{ !(steps.a.body.stat != 'active') }}", set: { x: 1 } }
        - { id: after_and, needs: [a], if: "${{ steps.a.body.level == 1 && steps.a.body.lvl == 2 }}", set: { x: 1 } }
        - { id: on_the_right, needs: [a], if: "${{ 'active' == steps.a.body.stat }}", set: { x: 1 } }
        - { id: answered_false, needs: [a], if: "${{ steps.a.body.state == 'blocked' }}", set: { x: 1 } }
        - { id: null_on_purpose, needs: [a], if: "${{ steps.a.body.stat != null }}", set: { x: 1 } }
        - { id: or_fallback, needs: [a], if: "${{ steps.a.body.enabeld || false }}", set: { x: 1 } }
        - { id: defaulted, needs: [a], if: "${{ default(steps.a.body.enabeld, false) }}", set: { x: 1 } }
        - { id: function_null, needs: [a], if: "${{ url_query('https://x.example/cb?code=1', 'error') == 'denied' }}", set: { x: 1 } }
        - { id: env_off, needs: [a], if: "${{ env.AUTHFLOW_NOT_SET == 'yes' }}", set: { x: 1 } }
        - { id: setting_off, needs: [a], if: "${{ tenant.settings.feature && env.AUTHFLOW_TEST == 'yes' }}", set: { x: 1 } }
        - { id: held, needs: [a], if: "${{ steps.a.body.stat != 'blocked' }}", set: { x: 1 } }
        - { id: skipped_by_its_if, needs: [a], if: "${{ steps.a.body.state == 'blocked' }}", set: { body: { ok: 1 } } }
        - { id: if_it_ran, needs: [skipped_by_its_if], if: "${{ steps.skipped_by_its_if.body.ok == 1 }}", set: { x: 1 } }
      """)
    try expectEvaluationProblem(
      "the `if` condition is false because steps.a.body.",
      steps: ["misspelt", "bare", "negated", "after_and", "on_the_right"], in: report)
    #expect(report.step("after_and")?.problems.first?.message.contains("because steps.a.body.lvl read") == true)
    // At the name that read nothing.
    #expect(report.step("misspelt")?.problems.first.flatMap { $0.location.map { [$0.line, $0.column] } } == [5, 42])
    #expect(
      report.step("on_the_right")?.problems.first.flatMap { $0.location.map { [$0.line, $0.column] } } == [9, 58])
    // An unset variable or tenant setting in an `if:` means "off" (docs/running.md).
    for id in [
      "answered_false", "null_on_purpose", "or_fallback", "defaulted", "function_null", "env_off", "setting_off",
      "skipped_by_its_if", "if_it_ran",
    ] {
      #expect(report.step(id)?.status == .skipped, "\(id)")
      #expect(report.step(id)?.skipReason == "its `if` condition is false", "\(id)")
    }
    #expect(report.step("held")?.status == .passed)
  }

  /// An operand with a `${{ … }}` inside longer text that read nothing is that text alone:
  /// `not_equals: "tok-${{ steps.a.body.tokn }}"` compared with "tok-" and held against any token,
  /// and `contains: "${{ steps.a.body.cod }}code"` checked for "code". And a list operand of a
  /// negated matcher whose element read nothing (`not_one_of: ["${{ x }}", "${{ y }}"]`) held as a
  /// whole operand that read nothing did. `default(…, '')` says on purpose that a part may be absent.
  @Test func anOperandInterpolatingNothingFailsTheCheck() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Interpolated nothing
      steps:
        - id: a
          set: { body: { token: abc, url: "https://x.example/cb?code=1" } }
        - id: negated
          set: { token: zzz, url: "https://x.example/cb?code=1", roles: [admin] }
          expect:
            token: { not_equals: "tok-${{ steps.a.body.tokn }}" }
            url: { contains: "${{ steps.a.body.cod }}code" }
            roles: { not_one_of: ["${{ steps.a.body.x }}", admin2] }
        - id: present
          needs: [a]
          set: { token: tok-abc, url: "https://x.example/cb?code=1" }
          expect:
            token: { equals: "tok-${{ steps.a.body.token }}", not_equals: "tok-${{ default(steps.a.body.x, '') }}" }
            url: { starts_with: "https://${{ 'x' }}.example/" }
      """)
    let problems = try #require(report.step("negated")).problems
    #expect(problems.map(\.kind) == [.evaluation, .evaluation, .evaluation])
    #expect(
      problems.map { $0.message.components(separatedBy: " interpolates").first ?? "" }.prefix(2) == [
        "the operand of not_equals", "the operand of contains",
      ])
    #expect(problems.last?.message.hasPrefix("an element of the operand of not_one_of read nothing") == true)
    // At the interpolation that read nothing.
    #expect(problems.first.flatMap { $0.location.map { [$0.line, $0.column] } } == [8, 33])
    #expect(report.step("present")?.problems.map(\.message) == [])
  }

  /// A parameter whose whole value is a name of what the tenant answered that read nothing would
  /// send `null`: `json: { refresh_token: "${{ steps.a.body.refresh_tokn }}" }` gets a 400 for the
  /// malformed request, and `status: 400` passes as if the token had been refused. It fails before
  /// the action runs, in a member or an element as at the top. Written on purpose, it is sent:
  /// `default(…, null)`, a literal `null`; a condition is judged as one (false), and an unset
  /// setting of the run's configuration is not the tenant's answer.
  @Test func aParameterWhoseValueReadNothingFailsTheStepBeforeItRuns() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Parameters reading nothing
      steps:
        - id: a
          set: { body: { refresh_token: rt-1 } }
        - id: member
          http: { url: /oauth/token, method: POST, json: { refresh_token: "${{ steps.a.body.refresh_tokn }}" } }
          expect: { status: 400 }
        - id: element
          needs: [a]
          set: { tokens: ["${{ steps.a.body.refresh_token }}", "${{ steps.a.body.rt }}"] }
        - id: on_purpose
          needs: [a]
          set:
            maybe: "${{ default(steps.a.body.refresh_tokn, null) }}"
            literal: null
            setting: "${{ tenant.settings.not_set }}"
        - id: condition
          needs: [a]
          assert: "${{ steps.a.body.ok }}"
        - id: skipped
          needs: [a]
          if: "${{ steps.a.body.refresh_token == 'rt-2' }}"
          set: { token: rt-2 }
        - id: reads_skipped
          needs: [skipped]
          set: { token: "${{ steps.skipped.token }}" }
      """)
    try expectEvaluationProblem(
      "this parameter's value read nothing", steps: ["member", "element"], in: report)
    // At the name that read nothing.
    #expect(report.step("member")?.problems.first.flatMap { $0.location.map { [$0.line, $0.column] } } == [6, 74])
    #expect(report.step("on_purpose")?.problems.map(\.message) == [])
    #expect(report.step("condition")?.problems.map(\.message) == ["assertion failed: the condition is null"])
    // A step that did not run is named as such, not as a misspelling.
    #expect(
      report.step("reads_skipped")?.problems.first?.message.hasPrefix(
        "this parameter's value reads the result of step 'skipped', which did not run") == true)
  }

  /// A parameter is held to the same rule, before anything is sent: `url:
  /// "/api/v2/users/${{ steps.a.body.user_idd }}"` would ask for the list of users, and a `status:
  /// 200` would pass. Free text (`assert`'s `message`) renders a missing value empty, as before.
  @Test func aParameterInterpolatingNothingFailsTheStepBeforeItRuns() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Parameters interpolating nothing
      steps:
        - id: a
          set: { body: { user_id: u1 } }
        - id: url
          http: { url: "/api/v2/users/${{ steps.a.body.user_idd }}" }
        - id: nested
          needs: [a]
          set: { labels: ["x-${{ steps.a.body.none }}"] }
        - id: message
          needs: [a]
          assert: { that: "${{ steps.a.body.user_id == 'u1' }}", message: "got ${{ steps.a.body.nothing }}" }
        - id: defaulted
          needs: [a]
          set: { label: "x-${{ default(steps.a.body.none, '') }}", id: "user-${{ steps.a.body.user_id }}" }
      """)
    try expectEvaluationProblem(
      "this parameter interpolates an expression that read nothing", steps: ["url", "nested"], in: report)
    // At the `${{`.
    #expect(report.step("url")?.problems.first.flatMap { $0.location.map { [$0.line, $0.column] } } == [6, 33])
    #expect(report.step("message")?.problems.map(\.message) == [])
    #expect(report.step("defaulted")?.problems.map(\.message) == [])
  }
}
