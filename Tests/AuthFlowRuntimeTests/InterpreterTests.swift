import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Testing

@Suite("Interpreter semantics, over real HTTP on loopback")
struct InterpreterTests {
  @Test("Independent branches run concurrently")
  func concurrentBranches() async throws {
    // /barrier answers together=true only when two requests are inside it at once.
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Two branches meet at a barrier
        steps:
          - id: left
            needs: []
            http: { url: barrier }
            expect: { body.together: true }
          - id: right
            needs: []
            http: { url: barrier }
            expect: { body.together: true }
        """)
    }
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }

  @Test("A step in list order waits for the one before it")
  func listOrderIsSequential() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Sequential steps
        steps:
          - id: first
            http: { url: count/seq }
          - id: second
            http: { url: count/seq }
            expect:
              body.n: 2
          - id: third
            assert: ${{ steps.first.body.n == 1 }}
        """)
    }
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }

  @Test("A failed step skips its dependants, with the reason; other branches go on")
  func skipOnFailure() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Failure propagation
        steps:
          - id: broken
            http: { url: status/500 }
            expect: { status: 200 }
          - id: dependant
            http: { url: count/d }
          - id: transitive
            http: { url: count/d }
          - id: independent
            needs: []
            http: { url: count/i }
            expect: { status: 200 }
        """)
    }
    #expect(report.status == .failed)
    #expect(report.step("broken")?.status == .failed)
    #expect(report.step("dependant")?.status == .skipped)
    #expect(report.step("dependant")?.skipReason?.contains("'broken'") == true)
    #expect(report.step("transitive")?.status == .skipped)
    #expect(report.step("independent")?.status == .passed)
  }

  @Test("A step skipped by its `if` does not skip the steps after it")
  func conditionFalse() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Conditions
        vars:
          enabled: false
        steps:
          - id: optional
            if: ${{ vars.enabled }}
            http: { url: count/o }
          - id: next
            http: { url: count/n }
            expect: { body.n: 1 }
        """)
    }
    #expect(report.step("optional")?.status == .skipped)
    #expect(report.step("optional")?.skipReason?.contains("if") == true)
    #expect(report.step("next")?.status == .passed)
    #expect(report.status == .passed)
  }

  @Test("Cleanup always runs, after a failure too")
  func cleanupAlwaysRuns() async throws {
    let (report, cleanups) = try await TestRoutes.withServer { base, counters in
      let report = try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Cleanup after failure
        steps:
          - id: fails
            http: { url: status/403 }
            expect: { status: 200 }
        cleanup:
          - id: tidy
            http: { url: count/cleanup }
            expect: { body.n: 1 }
        """)
      return (report, counters.value("cleanup"))
    }
    #expect(cleanups == 1)
    #expect(report.step("tidy")?.status == .passed)
    #expect(report.step("tidy")?.phase == .cleanup)
    #expect(report.status == .failed)
  }

  @Test("retry with until polls until the condition holds")
  func retryUntil() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Polling
        steps:
          - id: poll
            http: { url: count/poll }
            retry:
              attempts: 5
              delay: 10ms
              until: ${{ steps.poll.body.n >= 3 }}
            expect: { body.n: 3 }
        """)
    }
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
    #expect(report.step("poll")?.attempts == 3)
  }

  @Test("retry without until repeats until the expectations pass; until that never holds fails")
  func retryExhaustion() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Retries
        steps:
          - id: eventually
            needs: []
            http: { url: count/e }
            retry: { attempts: 4 }
            expect: { body.n: 2 }
          - id: never
            needs: []
            http: { url: count/never }
            retry: { attempts: 3, until: "${{ steps.never.body.n > 10 }}" }
        """)
    }
    #expect(report.step("eventually")?.status == .passed)
    #expect(report.step("eventually")?.attempts == 2)
    #expect(report.step("never")?.status == .failed)
    #expect(report.step("never")?.attempts == 3)
    #expect(report.step("never")?.problems.first?.kind == .retryExhausted)
  }

  @Test("An until that never held says which name read nothing at the last attempt")
  func untilReadingNothing() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Until reading nothing
        steps:
          - id: poll
            http: { url: count/poll }
            retry: { attempts: 2, until: "${{ steps.poll.body.count == 2 }}" }
        """)
    }
    let problem = try #require(report.step("poll")?.problems.first)
    #expect(problem.kind == .retryExhausted)
    #expect(
      problem.message
        == "retry: the `until` condition never held; at the last attempt steps.poll.body.count read nothing "
        + "(a missing value, null): is the name misspelt?")
    #expect(report.step("poll")?.attempts == 2)
  }

  @Test("A step past its timeout while the server has not answered is an environment error, cut off in time")
  func stepTimeout() async throws {
    let ((report, budget), reached) = try await TestRoutes.whileTheTenantHolds(
      route: "slower", budgets: ["200ms", "600ms", "2s"]
    ) { budget, base, _ in
      let report = try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Timeouts
        steps:
          - id: slow
            timeout: \(budget)
            http: { url: slower }
          - id: after
            http: { url: count/after }
        """)
      return (report, budget)
    }
    #expect(reached, "the step never reached the tenant within its timeout: nothing was tested")
    // As messages show durations: "2s" is "2.00s".
    let shown = DurationText.format(try #require(DurationText.parse(budget)))
    // The tenant had not answered: the environment's fault (docs/running.md), not an assertion.
    #expect(report.step("slow")?.status == .error)
    #expect(report.step("slow")?.problems.first?.kind == .environment)
    #expect(
      report.step("slow")?.problems.first?.message.contains("within its timeout of \(shown)") == true,
      "\(report.step("slow")?.problems.map(\.message) ?? [])")
    #expect(report.step("after")?.status == .skipped)
    // The server answers after 15 s with a 200 (far past the longest budget, so that a deadline a
    // loaded machine fires late still comes first): the timeout message above can only come from
    // the step being cut off before that (its wall-clock duration is no evidence on a busy machine).
    #expect(report.step("slow")?.status != .passed)
  }

  @Test("A scenario past its timeout while the tenant has not answered is an environment error; cleanup still runs")
  func scenarioTimeout() async throws {
    let ((report, cleanups), reached) = try await TestRoutes.whileTheTenantHolds(
      route: "slower", budgets: ["1s", "3s", "9s"]
    ) { budget, base, counters in
      let report = try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Scenario timeout
        timeout: \(budget)
        steps:
          - id: slow
            http: { url: slower }
          - id: never
            http: { url: count/never }
        cleanup:
          - http: { url: count/cleanup }
        """)
      return (report, counters.value("cleanup"))
    }
    #expect(reached, "the step never reached the tenant within the scenario's timeout: nothing was tested")
    // The slow step was waiting on the tenant when the scenario's time ran out (docs/running.md).
    #expect(report.status == .error)
    #expect(report.steps.flatMap(\.problems).contains { $0.kind == .environment })
    #expect(report.step("never")?.status == .skipped)
    #expect(cleanups == 1)
  }

  @Test("save stores values in vars for later steps")
  func save() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Save
        steps:
          - id: first
            http: { url: count/s }
            save:
              first_n: ${{ steps.first.body.n }}
          - assert:
              that: ${{ vars.first_n == 1 }}
        """)
    }
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }

  @Test("A refused connection is an environment error (exit 3), not an assertion failure")
  func environmentError() async throws {
    // Port 9 (discard) on loopback is closed on these machines: the connection is refused.
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9/").run([
      """
      scenario: Unreachable tenant
      steps:
        - id: call
          http: { url: anything }
          expect: { status: 200 }
        - id: after
          http: { url: anything }
      """
    ])
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.step("call")?.status == .error)
    #expect(scenario.step("call")?.problems.first?.kind == .environment)
    #expect(scenario.step("after")?.status == .skipped)
    #expect(scenario.status == .error)
    #expect(report.exitCode == .environment)
  }

  @Test("A scenario that requires a missing capability is skipped with the reason")
  func requiresCapability() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9/").run(
      """
      scenario: Needs passkeys
      requires: [passkeys]
      steps:
        - wait: 1ms
      """)
    #expect(report.status == .skipped)
    #expect(report.skipReason?.contains("passkeys") == true)
  }

  @Test("Token-like members of a response are secrets: failure messages show them masked")
  func secretsInResults() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run(
        """
        scenario: Secrets stay secret
        steps:
          - id: token
            http: { url: token, method: POST }
            expect:
              body.access_token: wrong
        """)
    }
    let problem = try #require(report.step("token")?.problems.first)
    #expect(problem.actual == "\"***\"")
    #expect(!problem.message.contains("opaque-access-token-123456"))
  }

  @Test("Matrix instances run separately with their own values")
  func matrix() async throws {
    let report = try await TestRoutes.withServer { base, _ in
      try await ScenarioHarness(baseURL: base).run([
        """
        scenario: Status codes
        matrix:
          code: [200, 404]
        steps:
          - http: { url: "status/${{ matrix.code }}" }
            expect:
              status: ${{ matrix.code }}
        """
      ])
    }
    #expect(report.scenarios.map(\.name) == ["Status codes [code: 200]", "Status codes [code: 404]"])
    #expect(report.scenarios.allSatisfy { $0.status == .passed })
  }

  @Test("Cancelling a run marks it interrupted, reports what did not run, and still runs cleanup")
  func interruption() async throws {
    let (report, cleanups) = try await TestRoutes.withServer { base, counters in
      let harness = ScenarioHarness(baseURL: base)
      let instances = try ["A", "B", "C"].flatMap { name in
        try ScenarioHarness.parse(
          """
          scenario: Slow \(name)
          steps:
            - http: { url: slow }
          cleanup:
            - http: { url: count/cleanup }
          """
        ).instances
      }
      var one = harness
      one.jobs = 1
      let task = Task { await one.run(instances: instances) }
      try await Task.sleep(for: .milliseconds(300))
      task.cancel()
      let report = await task.value
      return (report, counters.value("cleanup"))
    }
    #expect(report.interrupted)
    #expect(report.scenarios.count == 3)
    // The one cut short and the ones never started are interrupted, never passed or skipped.
    #expect(report.scenarios.allSatisfy { $0.status == .interrupted })
    #expect(cleanups == 1)
  }
}
