import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowMockTenant
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Synchronization

/// The embedded mock tenant and the run's services, started once, driving the real `web_auth`
/// flow over loopback HTTP: `/authorize` with PKCE, the Universal Login form, the code exchange
/// and the ID-token check — the same interpreter `authflow run` uses, one scenario per flow, so
/// every flow has a fresh browser (no SSO shortcut).
public struct LoginFlowRig: Sendable {
  /// Why the rig could not start, or a flow did not pass.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String

    static func invalidScenario(_ diagnostics: [Diagnostic]) -> Failure {
      Failure(description: "the login scenario is not valid: \(diagnostics.map(\.message).joined(separator: "; "))")
    }

    static func tenant(_ message: String) -> Failure {
      Failure(description: "the embedded mock did not start: \(message)")
    }

    static func flowFailed(_ report: ScenarioReport) -> Failure {
      let problem = report.firstProblem.map { step in
        "\(step.id): " + (step.problems.first?.message ?? step.skipReason ?? step.status.rawValue)
      }
      return Failure(description: "a login flow did not pass (\(problem ?? report.status.rawValue))")
    }
  }

  /// How the flows reach the embedded mock.
  public enum Transport: String, Sendable {
    /// HTTP/1.1 over a loopback socket through the live client (AsyncHTTPClient): what
    /// `authflow run` does, and the main rows.
    case loopback
    /// The mock's router called in-process (``InProcessMockTransport``): the same requests,
    /// router, handlers and checks, without HTTP on a socket.
    case inProcess = "in-process"
  }

  let tenant: ResolvedTenant
  let transport: LiveTransport
  let interpreter: ScenarioInterpreter
  let instance: ScenarioInstance
  let directory: TemporaryDirectory

  /// Starts the embedded mock on 127.0.0.1 (the built-in fixture without its rate limit: see
  /// `BenchTenant`) and prepares the flow: a login asking for `audience` (two signatures: ID token
  /// and JWT access token), or, with nil, a login without one (one signature: the access token is
  /// opaque).
  public static func start(
    audience: String? = ScenarioCorpus.loginAudience, transport kind: Transport = .loopback
  ) async throws(Failure) -> LoginFlowRig {
    // source: the login flow and a project with the bench tenant, in a temporary directory
    let directory: TemporaryDirectory
    let source: ScenarioSource
    do {
      directory = try TemporaryDirectory()
      let file = (directory.path as NSString).appendingPathComponent("bench-login.yaml")
      try ScenarioCorpus.loginFlow(name: "bench login flow", audience: audience).write(
        toFile: file, atomically: false, encoding: .utf8)
      source = ScenarioSource(paths: [file], configFile: try BenchTenant.write(into: directory.path))
    } catch {
      throw .tenant(String(describing: error))
    }
    // → parsed → validated → planned
    let suite = await source.validated(embedded: MockTenantHost())
    guard suite.isValid else {
      directory.remove()
      throw .invalidScenario(suite.diagnostics)
    }
    let plan: RunPlan
    switch suite.plan(tenants: [BenchTenant.name], selection: Selection()) {
    case .success(let planned): plan = planned
    case .failure(let unknown):
      directory.remove()
      throw .tenant(unknown.message)
    }
    guard let instance = plan.instances.first?.loaded else {
      directory.remove()
      throw .invalidScenario([])
    }
    // → bound: the mock starts
    let secrets = SecretRegistry()
    let resolver = TenantResolver(
      embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: plan.projectDirectory)
    let bound: BoundRun
    do {
      bound = try await plan.bind(resolver)
    } catch {
      directory.remove()
      throw .tenant(error.error.message)
    }
    guard let tenant = bound.tenants.first else {
      directory.remove()
      throw .tenant("no tenant")
    }
    let transport = LiveTransport()
    let network: any HTTPTransport
    switch kind {
    case .loopback: network = transport
    case .inProcess:
      guard let client = tenant.embedded.flatMap(MockTenantHost.inProcessClient(of:)) else {
        await tenant.stop()
        directory.remove()
        throw .tenant("the embedded mock has no in-process client")
      }
      network = InProcessMockTransport(client: client, baseURL: tenant.context.baseURL, fallback: transport)
    }
    let services = RunServices(secrets: secrets, transport: network)
    let interpreter = ScenarioInterpreter(tenant: tenant.context, services: services, functions: Pipeline.functions)
    return LoginFlowRig(
      tenant: tenant, transport: transport, interpreter: interpreter, instance: instance, directory: directory)
  }

  /// How many tokens the mock has signed since it started (its counter in the signing path).
  public var signaturesMade: Int { tenant.signaturesMade ?? 0 }

  /// Stops the mock and closes the pooled connections.
  public func stop() async {
    await tenant.stop()
    try? await transport.shutdown()
    directory.remove()
  }

  /// Runs one complete login flow; fails unless every check passed.
  public func runFlow() async throws(Failure) {
    let report = await interpreter.run(instance)
    guard report.status == .passed else { throw .flowFailed(report) }
  }

  /// A timed batch: how many flows completed and how long it took.
  public struct Batch: Sendable {
    public var flows: Int
    public var elapsed: Duration
    /// Each flow's own duration, in seconds (sequential batches only).
    public var latencies: [Double]

    /// Flows per second.
    public var throughput: Double {
      let seconds = elapsed.seconds
      return seconds > 0 ? Double(flows) / seconds : 0
    }
  }

  /// Runs flows one after another until `limit` flows or `duration` have passed (at least one).
  public func runSequential(limit: Int, duration: Duration) async throws(Failure) -> Batch {
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = started + duration
    var latencies: [Double] = []
    latencies.reserveCapacity(min(limit, 100_000))
    repeat {
      let flowStarted = clock.now
      try await runFlow()
      latencies.append((clock.now - flowStarted).seconds)
    } while latencies.count < limit && clock.now < deadline
    return Batch(flows: latencies.count, elapsed: clock.now - started, latencies: latencies)
  }

  /// Runs flows on `workers` concurrent tasks until `limit` flows have started or `duration` has
  /// passed; returns when all have finished.
  public func runConcurrent(workers: Int, limit: Int, duration: Duration) async throws(Failure) -> Batch {
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = started + duration
    let claimed = FlowCounter()
    let outcome: Result<Int, Failure> = await withTaskGroup(of: Result<Int, Failure>.self) { group in
      for _ in 0..<max(1, workers) {
        group.addTask {
          var completed = 0
          while claimed.claim() < limit {
            do throws(Failure) {
              try await runFlow()
            } catch {
              return .failure(error)
            }
            completed += 1
            if clock.now >= deadline { break }
          }
          return .success(completed)
        }
      }
      var total = 0
      for await result in group {
        switch result {
        case .success(let completed): total += completed
        case .failure(let failure):
          group.cancelAll()
          return .failure(failure)
        }
      }
      return .success(total)
    }
    let flows = try outcome.get()
    return Batch(flows: flows, elapsed: clock.now - started, latencies: [])
  }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// Numbers flows across concurrent workers.
final class FlowCounter: Sendable {
  private let next = Atomic<Int>(0)

  /// The number of the flow the caller is about to run (0, 1, 2, …).
  func claim() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}
