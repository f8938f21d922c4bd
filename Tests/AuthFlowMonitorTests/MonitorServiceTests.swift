import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMonitor
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRun
import AuthFlowTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `authflow monitor` for real: scenarios on the embedded mock on a schedule, the endpoints on
/// loopback read over HTTP — metrics, a probe, the status page and its JSON, readiness — a reload
/// that is refused and one that takes, a graceful stop that cuts a long run short, and no secret the
/// tenant issued in any of the outputs.
@Suite(.serialized) struct MonitorServiceTests {
  /// Signs a new user up each run: a run that reused the last run's identity would be refused
  /// (the address is taken), so every run passing shows fresh identities.
  static let passing = """
    scenario: Sign in
    tags: [login]
    client: native
    vars:
      user: ${{ tenant.users.alice }}
      email: ${{ random_email() }}
    steps:
      - id: signup
        signup:
          email: ${{ vars.email }}
          password: ${{ random_password() }}
          connection: Username-Password-Authentication
        expect: { response.status: 200 }
      - id: login
        web_auth:
          scope: openid profile email offline_access
          login: { email: "${{ vars.user.email }}", password: "${{ vars.user.password }}" }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
      - id: echo
        http:
          url: "userinfo?echo=${{ steps.login.access_token }}"
          headers: { Authorization: "Bearer ${{ steps.login.access_token }}" }
        expect: { status: 200 }
    """

  /// Fails twice: a wrong password, and a check on a token's value whose message would quote the
  /// token if masking missed it.
  static let failing = """
    scenario: Wrong password is accepted
    client: native
    vars:
      user: ${{ tenant.users.alice }}
    steps:
      - id: login
        login: { username: "${{ vars.user.email }}", password: "not-the-password" }
      - id: web
        needs: []
        web_auth:
          scope: openid offline_access
          login: { email: "${{ vars.user.email }}", password: "${{ vars.user.password }}" }
        expect:
          refresh_token: { equals: "not-the-token" }
          access_token: { contains: "not-in-it" }
    """

  static let slow = """
    scenario: Slow
    steps:
      - id: pause
        wait: 60s
    """

  /// A folder with `files`, removed afterwards.
  static func withFolder<T>(_ files: [String: String], _ body: (String) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    return try await body(directory)
  }

  /// Every response the tenant sent, below authflow's masking.
  final class Wire: Sendable {
    let bodies = Mutex<[String]>([])
    let locations = Mutex<[String]>([])

    /// The tokens and codes the tenant issued: what must appear in no output.
    var issued: Set<String> {
      var found: Set<String> = []
      for body in bodies.withLock({ $0 }) {
        guard let object = (try? Value(json: Data(body.utf8)))?.objectValue else { continue }
        for name in ["access_token", "id_token", "refresh_token"] {
          if let text = object[name]?.stringValue, text.count >= 8 { found.insert(text) }
        }
      }
      for location in locations.withLock({ $0 }) {
        let items = URLComponents(string: location)?.queryItems ?? []
        for item in items where item.name == "code" { if let value = item.value { found.insert(value) } }
      }
      return found
    }
  }

  struct WireTap: HTTPTransport {
    let base: any HTTPTransport
    let wire: Wire

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
      let response = try await base.send(request)
      wire.bodies.withLock { $0.append(String(decoding: response.body, as: UTF8.self)) }
      if let location = response.headers["Location"] { wire.locations.withLock { $0.append(location) } }
      return response
    }
  }

  static func configuration(
    _ directory: String, wire: Wire? = nil, interval: Duration = .seconds(1), grace: Duration = .seconds(30)
  ) -> (MonitorConfiguration, Lines) {
    let lines = Lines()
    var run = RunConfiguration(secrets: SecretRegistry(), reporters: ReporterGroup([]))
    run.paths = [directory]
    run.console = RunConsole(out: { lines.append($0) }, error: { lines.append($0) })
    if let wire { run.transportLayer = { WireTap(base: $0, wire: wire) } }
    var configuration = MonitorConfiguration(run: run)
    configuration.port = 0
    configuration.interval = interval
    configuration.jitterPercent = 0
    configuration.concurrency = 2
    configuration.grace = grace
    return (configuration, lines)
  }

  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  static func get(_ url: String, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: try #require(URL(string: url)))
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  /// Waits (bounded) until `condition` holds for the monitor's results.
  static func until(
    _ monitor: Monitor, limit: Duration = .seconds(240), _ condition: (MonitorResults.Snapshot) -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition(monitor.results.status) {
      try #require(ContinuousClock.now < deadline, "the monitor's results did not come within \(limit)")
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  /// The value of a sample line `name{labels} value` of an exposition.
  static func sample(_ exposition: String, _ prefix: String) -> Double? {
    exposition.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap {
      Double($0.split(separator: " ").last ?? "")
    }
  }

  @Test func scenariosRunOnTheirScheduleAndAreServed() async throws {
    let wire = Wire()
    try await Self.withFolder(["a.yaml": Self.passing, "b.yaml": Self.failing]) { directory in
      let (configuration, lines) = Self.configuration(directory, wire: wire)
      let monitor = Monitor(configuration)
      #expect(await monitor.load() == nil, "\(lines.all)")
      let server = try await MonitorServer.start(monitor, host: "127.0.0.1", port: 0)
      try await Self.until(monitor) { status in status.entries.allSatisfy { $0.history.count >= 2 } }

      let metrics = try await Self.get(server.url + "metrics")
      #expect(metrics.status == 200)
      let text = metrics.body
      #expect(Self.sample(text, #"authflow_scenario_success{scenario="Sign in",tenant="mock"}"#) == 1)
      #expect(
        Self.sample(text, #"authflow_scenario_success{scenario="Wrong password is accepted",tenant="mock"}"#) == 0)
      #expect((Self.sample(text, #"authflow_runs_total{scenario="Sign in",tenant="mock",result="passed"}"#) ?? 0) >= 2)
      #expect(
        (Self.sample(text, #"authflow_runs_total{scenario="Wrong password is accepted",tenant="mock",result="failed"}"#)
          ?? 0) >= 2)
      #expect(
        text.contains(
          #"authflow_step_duration_seconds_bucket{scenario="Sign in",tenant="mock",step="login",action="web_auth",le="#)
      )
      #expect(text.contains(#"authflow_scenario_duration_seconds_count{scenario="Sign in",tenant="mock"}"#))
      #expect((Self.sample(text, #"authflow_tenant_jwks_keys{tenant="mock"}"#) ?? 0) >= 1)
      #expect((Self.sample(text, #"authflow_tenant_token_expiry_seconds{tenant="mock",token="id"}"#) ?? 0) > 0)
      #expect((Self.sample(text, #"authflow_tenant_token_expiry_seconds{tenant="mock",token="access"}"#) ?? 0) > 0)
      #expect(Self.sample(text, "authflow_monitor_config_last_reload_successful") == 1)
      #expect(Self.sample(text, #"authflow_scenario_interval_seconds{scenario="Sign in",tenant="mock"}"#) == 1)
      #expect(try MonitorDocsTests.undocumented(in: text).isEmpty, "not in docs/monitor.md")

      // Never two runs of one scenario at once: each starts after the one before ended.
      for entry in monitor.results.status.entries {
        for (before, after) in zip(entry.history, entry.history.dropFirst()) {
          #expect(after.startedAt >= before.startedAt.addingTimeInterval(before.duration.seconds - 0.001))
        }
      }

      let probe = try await Self.get(
        server.url + "probe?scenario=Sign%20in", headers: ["X-Prometheus-Scrape-Timeout-Seconds": "60"])
      #expect(probe.status == 200)
      #expect(Self.sample(probe.body, "authflow_probe_success") == 1)
      #expect(Self.sample(probe.body, #"authflow_runs_total{scenario="Sign in",tenant="mock",result="passed"}"#) == 1)
      let failedProbe = try await Self.get(server.url + "probe?scenario=Wrong%20password%20is%20accepted")
      #expect(Self.sample(failedProbe.body, "authflow_probe_success") == 0)
      #expect(try await Self.get(server.url + "probe?scenario=Nope").status == 404)
      #expect(try await Self.get(server.url + "probe").status == 400)

      let page = try await Self.get(server.url)
      #expect(page.status == 200)
      #expect(page.body.contains("Sign in") && page.body.contains("Wrong password is accepted"))
      #expect(page.body.contains("class=\"failed\""))
      let json = try #require(
        try Value(json: Data(try await Self.get(server.url + "api/results").body.utf8)).objectValue)
      #expect(json["ready"] == .bool(true))
      let scenarios = try #require(json["scenarios"]?.arrayValue)
      #expect(scenarios.count == 2)
      let id = try #require(monitor.results.status.entries.first?.id)
      let report = try await Self.get(
        server.url + "report?id=" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
      #expect(report.status == 200)
      #expect(report.body.contains("<svg"))
      // With its HTTP exchanges, masked (the leak scan below reads this page too).
      #expect(report.body.contains("/oauth/token"))
      #expect(try await Self.get(server.url + "healthz").status == 200)
      #expect(try await Self.get(server.url + "readyz").status == 200)

      // No token or code the tenant issued, in any form, in any output.
      let issued = wire.issued
      #expect(issued.count >= 6, "only \(issued.count) issued values seen on the wire")
      let outputs =
        [
          text, probe.body, failedProbe.body, page.body, report.body,
          try await Self.get(server.url + "api/results").body,
        ] + lines.all
      // (The outputs are not printed on a failure: they would show the secret.)
      let leaking = outputs.indices.filter { index in issued.contains { outputs[index].contains($0) } }
      #expect(leaking.isEmpty, "issued secrets in outputs \(leaking) of \(outputs.count)")
      await server.stop()
      #expect(!monitor.isReady)
    }
  }

  @Test func aReloadThatFailsKeepsTheRunningSetAndOneThatWorksReplacesIt() async throws {
    try await Self.withFolder(["a.yaml": Self.passing]) { directory in
      let (configuration, lines) = Self.configuration(directory)
      let monitor = Monitor(configuration)
      #expect(await monitor.load() == nil)
      let server = try await MonitorServer.start(monitor, host: "127.0.0.1", port: 0)
      try await Self.until(monitor) { $0.entries.first?.history.isEmpty == false }

      try "scenario: Broken\nsteps:\n  - id: x\n    nope: {}\n".write(
        toFile: directory + "/b.yaml", atomically: true, encoding: .utf8)
      monitor.reload()
      try await Self.until(monitor) { $0.reloadError != nil }
      #expect(lines.all.contains { $0.contains("b.yaml:4") }, "\(lines.all)")
      // The status page says why, with the diagnostic.
      let warned = try await Self.get(server.url).body
      #expect(warned.contains("the files were not reloaded") && warned.contains("b.yaml:4"))
      let runs = monitor.results.status.entries.first?.history.count ?? 0
      try await Self.until(monitor) { ($0.entries.first?.history.count ?? 0) > runs }
      #expect(monitor.results.status.entries.map(\.scenario) == ["Sign in"])
      let metrics = try await Self.get(server.url + "metrics").body
      #expect(Self.sample(metrics, "authflow_monitor_config_last_reload_successful") == 0)
      #expect(Self.sample(metrics, #"authflow_monitor_reloads_total{result="failure"}"#) == 1)

      try Self.failing.write(toFile: directory + "/b.yaml", atomically: true, encoding: .utf8)
      monitor.reload()
      try await Self.until(monitor) { $0.reloadError == nil && $0.entries.count == 2 }
      // The target that stayed keeps its history.
      #expect((monitor.results.status.entries.first { $0.scenario == "Sign in" }?.history.count ?? 0) > runs)
      try await Self.until(monitor) { $0.entries.allSatisfy { !$0.history.isEmpty } }
      let after = try await Self.get(server.url + "metrics").body
      #expect(Self.sample(after, "authflow_monitor_config_last_reload_successful") == 1)
      #expect(Self.sample(after, "authflow_monitor_scenarios") == 2)
      #expect(after.contains(#"scenario="Wrong password is accepted""#))

      // A scenario the files no longer hold leaves the metrics with it (its series go stale).
      try FileManager.default.removeItem(atPath: directory + "/b.yaml")
      monitor.reload()
      try await Self.until(monitor) { $0.entries.count == 1 }
      let dropped = try await Self.get(server.url + "metrics").body
      #expect(!dropped.contains(#"scenario="Wrong password is accepted""#))
      #expect(dropped.contains(#"authflow_scenario_success{scenario="Sign in",tenant="mock"}"#))
      await server.stop()
    }
  }

  /// A tenant whose SMTP receiver listens on a fixed port: a reload binds the new set while the
  /// old one still holds the port, so the receiver is handed over (without it, every reload of
  /// such a set is refused: "address in use"), and runs after the reload read their codes from it.
  @Test func aReloadHandsAFixedPortReceiverOver() async throws {
    let port = try LoopbackPort.unused()
    let project = """
      default_tenant: mock-smtp
      tenants:
        mock-smtp:
          kind: mock
          inbox:
            smtp: { listen: "127.0.0.1:\(port)" }
      """
    let scenario = """
      scenario: A code by mail
      requires: [inbox]
      client: native
      vars: { email: "${{ random_email() }}" }
      steps:
        - id: start
          passwordless_start: { email: "${{ vars.email }}", send: code }
        - id: mail
          outbox: { to: "${{ vars.email }}", after: start, timeout: 10s }
          expect: { count: 1 }
        - id: login
          passwordless_login: { email: "${{ vars.email }}", otp: "${{ steps.mail.code }}" }
      """
    try await Self.withFolder(["authflow.yaml": project, "a.yaml": scenario]) { directory in
      var (configuration, lines) = Self.configuration(directory)
      configuration.run.configFile = directory + "/authflow.yaml"
      let monitor = Monitor(configuration)
      try #require(await monitor.load() == nil, "\(lines.all)")
      let server = try await MonitorServer.start(monitor, host: "127.0.0.1", port: 0)
      try await Self.until(monitor) { $0.entries.first?.history.isEmpty == false }
      #expect(monitor.results.status.entries.first?.history.first?.status == .passed, "\(lines.all)")
      for reload in 1...2 {
        monitor.reload()
        try await Self.until(monitor, limit: .seconds(60)) { _ in
          monitor.results.status.reloadError != nil
            || lines.all.filter { $0.contains("monitor: reloaded") }.count == reload
        }
        #expect(monitor.results.status.reloadError == nil, "\(lines.all)")
      }
      let runs = monitor.results.status.entries.first?.history.count ?? 0
      try await Self.until(monitor) { ($0.entries.first?.history.count ?? 0) >= runs + 2 }
      let latest = try #require(monitor.results.status.entries.first?.history.last)
      #expect(latest.status == .passed, "\(latest.problem ?? "")")
      await server.stop()
    }
  }

  /// A reload whose tenant never answers its discovery request: the files are prepared beside the
  /// loop, so the running set keeps running on schedule meanwhile (a reload prepared inline held
  /// every run until the discovery timed out); the reload is then refused as an environment error.
  @Test func aSlowReloadDoesNotHoldTheSchedule() async throws {
    try await HostileServer.with(.hang) { address in
      let tenants = """
        default_tenant: mock
        tenants:
          mock: { kind: mock }
          other: { kind: mock }
        """
      try await Self.withFolder(["authflow.yaml": tenants, "a.yaml": Self.passing]) { directory in
        var (configuration, lines) = Self.configuration(directory, interval: .milliseconds(200))
        configuration.run.configFile = directory + "/authflow.yaml"
        configuration.run.tenants = ["mock", "other"]
        configuration.run.transport.requestTimeout = .seconds(6)
        configuration.run.transport.readTimeout = .seconds(6)
        let monitor = Monitor(configuration)
        try #require(await monitor.load() == nil, "\(lines.all)")
        let server = try await MonitorServer.start(monitor, host: "127.0.0.1", port: 0)
        func runs(_ status: MonitorResults.Snapshot) -> Int { status.entries.map(\.history.count).reduce(0, +) }
        try await Self.until(monitor) { runs($0) >= 2 }
        // `other` now answers nothing: its discovery waits for the request timeout.
        let slow = """
          default_tenant: mock
          tenants:
            mock: { kind: mock }
            other:
              kind: oidc
              issuer: http://\(address)
              clients: { native: { client_id: x, redirect_uri: "https://app.example.com/callback" } }
          """
        try slow.write(toFile: directory + "/authflow.yaml", atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let before = runs(monitor.results.status)
        monitor.reload()
        // Runs go on while the reload waits.
        try await Self.until(monitor, limit: .seconds(5)) { runs($0) >= before + 4 }
        #expect(monitor.results.status.reloadError == nil)
        try await Self.until(monitor, limit: .seconds(90)) { $0.reloadError != nil }
        #expect(ContinuousClock.now - started >= .seconds(5))
        #expect(monitor.results.status.reloadError?.contains("exit 3") == true, "\(lines.all)")
        await server.stop()
      }
    }
  }

  /// A stop lets a run finish within the grace, then cuts it short: its cleanup runs and it is
  /// recorded interrupted (no verdict, no metric).
  @Test func aStopCutsALongRunShortAfterTheGrace() async throws {
    try await Self.withFolder(["slow.yaml": Self.slow]) { directory in
      let (configuration, _) = Self.configuration(directory, grace: .milliseconds(300))
      let monitor = Monitor(configuration)
      #expect(await monitor.load() == nil)
      let server = try await MonitorServer.start(monitor, host: "127.0.0.1", port: 0)
      try await Self.until(monitor) { $0.entries.first?.running == true }
      let clock = ContinuousClock()
      let stopped = await clock.measure { await server.stop() }
      #expect(stopped < .seconds(50), "the stop waited for the 60 s step")
      let entry = try #require(monitor.results.status.entries.first)
      #expect(entry.history.last?.status == .interrupted)
      #expect(!monitor.metrics.exposition().contains("authflow_runs_total{scenario=\"Slow\""))
    }
  }

  /// A probe is bounded by the scraper's timeout (the run is cut short and the probe fails), and
  /// a second probe of a target already being probed is refused (429), not queued.
  @Test func probesAreBoundedByTheScrapeTimeoutAndOnePerTarget() async throws {
    try await Self.withFolder(["slow.yaml": Self.slow]) { directory in
      // The scheduled run of the slow scenario starts at once too; the stop cuts it after 0.2 s.
      let (configuration, _) = Self.configuration(directory, grace: .milliseconds(200))
      let monitor = Monitor(configuration)
      #expect(await monitor.load() == nil)
      let server = try await MonitorServer.start(monitor, host: "127.0.0.1", port: 0)
      let clock = ContinuousClock()
      async let first = Self.get(
        server.url + "probe?scenario=Slow", headers: ["X-Prometheus-Scrape-Timeout-Seconds": "3"])
      try await Task.sleep(for: .milliseconds(500))
      let second = try await Self.get(server.url + "probe?scenario=Slow")
      #expect(second.status == 429, "\(second.body)")
      let started = clock.now
      let answer = try await first
      #expect(clock.now - started < .seconds(45), "the probe waited for the 60 s step")
      #expect(answer.status == 200)
      #expect(Self.sample(answer.body, "authflow_probe_success") == 0)
      await server.stop()
    }
  }

  @Test func anInvalidSetIsRefusedAtStartWithTheRunsExitCode() async throws {
    try await Self.withFolder(["a.yaml": "scenario: x\nsteps: 3\n"]) { directory in
      let (configuration, lines) = Self.configuration(directory)
      #expect(await Monitor(configuration).load() == .invalidInput)
      #expect(lines.all.contains { $0.contains("a.yaml:2") }, "\(lines.all)")
    }
  }
}
