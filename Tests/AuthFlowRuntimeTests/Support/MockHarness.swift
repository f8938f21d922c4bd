import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario

/// Runs scenarios against the embedded mock tenant (the built-in fixture), started in-process on
/// 127.0.0.1 port 0 for the length of one call, over real HTTP.
enum MockHarness {
  struct Failed: Error, CustomStringConvertible {
    let description: String
  }

  /// Starts the mock, runs every scenario, stops the mock.
  static func run(
    _ yamls: [String], secrets: SecretRegistry = SecretRegistry(), jobs: Int = 2
  ) async throws -> RunReport {
    let instances = try yamls.enumerated().flatMap { index, yaml in
      try ScenarioHarness.parse(yaml, file: "scenario\(index).yaml").instances
    }
    return try await run(instances: instances, secrets: secrets, jobs: jobs)
  }

  /// Runs instances against a freshly started mock; `wrap` may decorate the transport (tracing);
  /// `beforeStop` may read the mock's own state (its outbox) once the run is over.
  static func run(
    instances: [ScenarioInstance], secrets: SecretRegistry, jobs: Int = 2, observer: (any RunObserver)? = nil,
    keepsStepResults: Bool = true, spool: ScenarioSpool? = nil,
    wrap: (any HTTPTransport) -> any HTTPTransport = { $0 },
    beforeStop: ((_ baseURL: String, _ transport: any HTTPTransport) async -> Void)? = nil
  ) async throws -> RunReport {
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    let profile = try requireValue(ProjectConfig.embedded.tenants.first)
    let tenant: ResolvedTenant
    do {
      tenant = try await resolver.resolve(profile)
    } catch {
      throw Failed(description: error.message)
    }
    let transport = LiveTransport()
    var services = RunServices(secrets: secrets, transport: wrap(transport), environment: [:])
    // As `authflow run` does: exchanges are kept when step results are.
    services.recordsExchanges = keepsStepResults
    let runner = Runner(
      tenant: tenant.context, services: services, functions: Pipeline.functions, jobs: jobs, observer: observer,
      keepsStepResults: keepsStepResults, spool: spool)
    let report = await runner.run(instances)
    await services.chromium.shutdown()  // a bundled scenario may use `browser: chromium`
    await beforeStop?(tenant.context.baseURL, transport)
    await tenant.stop()
    try? await transport.shutdown()
    return report
  }

  static func run(_ yaml: String, secrets: SecretRegistry = SecretRegistry()) async throws -> ScenarioReport {
    guard let first = try await run([yaml], secrets: secrets).scenarios.first else {
      throw Failed(description: "no scenario ran")
    }
    return first
  }
}

/// Unwraps an optional or throws (usable outside `#require`'s test-only context).
func requireValue<T>(_ value: T?) throws -> T {
  guard let value else { throw MockHarness.Failed(description: "unexpected nil") }
  return value
}

extension ScenarioReport {
  /// Every problem of every step, as one readable text (for test failure messages).
  var problemSummary: String {
    steps.flatMap { step in
      step.problems.map { "\(step.id): \($0.message)" } + (step.skipReason.map { ["\(step.id) skipped: \($0)"] } ?? [])
    }
    .joined(separator: "\n")
  }
}
