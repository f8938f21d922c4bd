import AuthFlowCore
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Synchronization

/// Parses a scenario from YAML text (failing on any diagnostic) and runs it against a tenant at
/// `baseURL`, over real HTTP.
struct ScenarioHarness {
  struct InvalidScenario: Error, CustomStringConvertible {
    let description: String
  }

  var baseURL: String
  /// `auth0` (Auth0.swift's rules) or `oidc` (any OpenID Provider's, with Auth0's paths here).
  var kind: TenantContext.Kind = .auth0
  var secrets = SecretRegistry()
  var clients: [String: Value] = [:]
  var users: [String: Value] = [:]
  var capabilities: Set<String> = []
  var settings: [String: Value] = [:]
  var jobs = 2
  var cleanupTimeout: Duration = .seconds(10)
  /// Told of every step as it finishes (tests that act at a point of the run, not after a sleep).
  var observer: (any RunObserver)?
  /// Decorates the live transport (e.g. with `RetryingTransport`).
  var wrap: @Sendable (any HTTPTransport) -> any HTTPTransport = { $0 }
  /// Where the runner spools each finished scenario (as `authflow run` does); nil keeps them in memory.
  var spool: ScenarioSpool?
  /// What stopped the run (a test records a cause before it cancels, as the CLI does).
  var stops = StopRecord()
  /// The run's chromium host (nil: the default one, from the process environment).
  var chromium: ChromiumHost?

  init(baseURL: String) {
    self.baseURL = baseURL
  }

  static func parse(_ yaml: String, file: String = "test.yaml") throws -> Scenario {
    let loader = ScenarioLoader(catalog: ActionRegistry.catalog, functions: Pipeline.functions)
    let (scenario, diagnostics) = loader.load(text: yaml, file: file)
    guard let scenario, !diagnostics.hasErrors else {
      throw InvalidScenario(description: diagnostics.map(\.description).joined(separator: "\n"))
    }
    return scenario
  }

  func run(_ yamls: [String]) async throws -> RunReport {
    let instances = try yamls.enumerated().flatMap { index, yaml in
      try Self.parse(yaml, file: "scenario\(index).yaml").instances
    }
    return await run(instances: instances)
  }

  func run(_ yaml: String) async throws -> ScenarioReport {
    let report = try await run([yaml])
    guard let first = report.scenarios.first else { throw InvalidScenario(description: "no scenario ran") }
    return first
  }

  func run(instances: [ScenarioInstance]) async -> RunReport {
    let transport = LiveTransport()
    let tenant = TenantContext(
      name: "test", kind: kind, baseURL: baseURL, clients: clients, users: users, capabilities: capabilities,
      settings: settings)
    var services = RunServices(
      secrets: secrets, transport: wrap(transport), environment: ["AUTHFLOW_TEST": "yes"],
      cleanupTimeout: cleanupTimeout, chromium: chromium)
    services.stops = stops
    let runner = Runner(
      tenant: tenant, services: services, functions: Pipeline.functions, jobs: jobs, observer: observer, spool: spool)
    let report = await runner.run(instances)
    try? await transport.shutdown()
    return report
  }
}

extension ScenarioReport {
  func step(_ id: String) -> StepReport? { steps.first { $0.id == id } }
}

/// Counters the test server keeps, readable by the test.
final class Counters: Sendable {
  private let values = Mutex<[String: Int]>([:])
  private let firsts = Mutex<[String: ContinuousClock.Instant]>([:])

  func increment(_ name: String) -> Int {
    firsts.withLock { firsts in if firsts[name] == nil { firsts[name] = .now } }
    return values.withLock { values in
      values[name, default: 0] += 1
      return values[name, default: 0]
    }
  }

  /// When `name` was first counted, if it was.
  func first(_ name: String) -> ContinuousClock.Instant? { firsts.withLock { $0[name] } }

  func value(_ name: String) -> Int { values.withLock { $0[name, default: 0] } }
}

/// A barrier: `arrive` returns true once `count` callers have arrived, false after the timeout.
actor Barrier {
  private var arrived = 0

  func arrive(count: Int, timeout: Duration) async -> Bool {
    arrived += 1
    let deadline = ContinuousClock.now + timeout
    while arrived < count {
      if ContinuousClock.now > deadline { return false }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return true
  }
}

/// The routes interpreter tests use.
enum TestRoutes {
  static func install(on router: Router<BasicRequestContext>, counters: Counters, barrier: Barrier) {
    router.get("count/:name") { _, context in
      let name = context.parameters.get("name") ?? "x"
      return Response.json(#"{"n": \#(counters.increment(name))}"#)
    }
    router.get("barrier") { _, _ in
      let ok = await barrier.arrive(count: 2, timeout: .seconds(3))
      return Response.json(#"{"together": \#(ok)}"#)
    }
    router.get("slow") { _, _ in
      _ = counters.increment("arrived/slow")
      try? await Task.sleep(for: .seconds(3))
      return Response.json(#"{"slow": true}"#)
    }
    // Far slower than any timeout under test, so that a stalled machine cannot let it answer first.
    router.get("slower") { _, _ in
      _ = counters.increment("arrived/slower")
      try? await Task.sleep(for: .seconds(15))
      return Response.json(#"{"slow": true}"#)
    }
    router.get("status/:code") { _, context in
      let code = context.parameters.get("code", as: Int.self) ?? 500
      return Response.json(#"{"code": \#(code)}"#, status: .init(code: code))
    }
    router.post("token") { _, _ in
      Response.json(#"{"access_token": "opaque-access-token-123456", "token_type": "Bearer", "expires_in": 60}"#)
    }
  }

  /// A timeout "while the tenant has not answered" needs the request to reach the tenant before the
  /// time runs out. On a starved machine (the whole suite at once on two cores) a short budget can
  /// run out before the step has sent anything: that is the other case, a timeout in the scenario's
  /// own work, and it proves nothing about this one. So `body` runs against a fresh server with
  /// each budget in turn (`slow` answers after 3 s, `slower` after 15 s: longer than any budget
  /// here) until the tenant saw the request to `route` within the budget; the result is that run's,
  /// with `reached` false only when even the last budget ran out first.
  static func whileTheTenantHolds<T: Sendable>(
    route: String, budgets: [String], _ body: (_ budget: String, _ base: String, Counters) async throws -> T
  ) async throws -> (result: T, reached: Bool) {
    var budgets = budgets[...]
    guard let last = budgets.popLast() else { preconditionFailure("no budget to try") }
    for budget in budgets {
      let outcome = try await attempt(budget, route: route, body)
      if outcome.reached { return outcome }
    }
    return try await attempt(last, route: route, body)
  }

  /// One run with `budget`; `reached` when the request arrived before the budget was spent since
  /// the run began — and so before the scenario's deadline, which starts later and fires no
  /// earlier: a request that arrives after it (the deadline struck while it was being sent) proves
  /// nothing, and the next budget is tried.
  private static func attempt<T: Sendable>(
    _ budget: String, route: String, _ body: (_ budget: String, _ base: String, Counters) async throws -> T
  ) async throws -> (result: T, reached: Bool) {
    let milliseconds =
      budget.hasSuffix("ms") ? Int(budget.dropLast(2)) : Int(budget.dropLast()).map { $0 * 1000 }
    guard let milliseconds, budget.hasSuffix("s") else {
      preconditionFailure("budgets are written as Ns or Nms: \(budget)")
    }
    return try await withServer { base, counters in
      let began = ContinuousClock.now
      let result = try await body(budget, base, counters)
      let arrived = counters.first("arrived/\(route)")
      return (result, arrived.map { $0 < began + .milliseconds(milliseconds) } ?? false)
    }
  }

  /// Runs `body` against a fresh server with these routes.
  static func withServer<T: Sendable>(_ body: (String, Counters) async throws -> T) async throws -> T {
    let counters = Counters()
    let barrier = Barrier()
    return try await LoopbackServer.with({ install(on: $0, counters: counters, barrier: barrier) }) { base in
      try await body(base, counters)
    }
  }
}
