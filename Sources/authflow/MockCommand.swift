import ArgumentParser
import AuthFlowCore
import AuthFlowMockTenant
import Foundation

/// `authflow mock`: serve the mock tenant standalone until stopped.
struct MockCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mock",
    abstract: "Serve the mock tenant standalone; prints its base URL as the first line of standard output.")

  @Option(name: .long, help: "The tenant fixture (default: the built-in fixture).")
  var fixture: String?

  @Option(name: .long, help: "The port (default 0: any free port).")
  var port: Int = 0

  @Option(name: .long, help: "The address to bind (default 127.0.0.1).")
  var host: String = "127.0.0.1"

  @Flag(
    name: .long,
    help: ArgumentHelp(
      "Serve the control routes (/__mock/*) to any Host and Origin.",
      discussion: """
        Off by default: /__mock/* answers only requests addressed to 127.0.0.1, localhost or [::1] on the mock's \
        port, without a non-loopback Origin, so a web page cannot reach a local mock by DNS rebinding. The control \
        routes need no credentials and can reset the tenant, move its clock, inject faults, sign tokens with its \
        key and read every email and text message (docs/tenants.md, "Test control").
        """))
  var allowRemoteControl = false

  func validate() throws {
    try FlagRange.check("--port", port, in: InputLimits.port)
  }

  func run() async throws {
    let loaded = fixture.map(FixtureLoader.load(path:)) ?? FixtureLoader.loadDefault()
    DiagnosticOutput.print(loaded.diagnostics, sources: [:])
    guard let tenantFixture = loaded.fixture, !loaded.diagnostics.hasErrors else {
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    if !MockTenantConfiguration.isLoopback(host: host) { Console.error(Self.nonLoopbackWarning(host)) }
    var configuration = MockTenantConfiguration(host: host, port: port)
    configuration.allowRemoteControl = allowRemoteControl
    let handle: MockTenantServer.Handle
    do {
      handle = try await MockTenantServer.start(fixture: tenantFixture, configuration: configuration)
    } catch {
      Console.error("error: \(error)")
      throw ExitCode(AuthFlowExitCode.environment.rawValue)
    }
    Console.out(handle.baseURL)
    _ = await Interruption.cancellable {
      while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
    await handle.stop()
  }

  /// The warning for `--host` on an address other machines can reach.
  static func nonLoopbackWarning(_ host: String) -> String {
    "warning: the mock binds \(host), which is not a loopback address: other machines can reach it. It is a test "
      + "double with fixed passwords and unauthenticated control routes (/__mock/*: reset, clock, faults, signing, "
      + "outbox); never expose it to a network you do not control (docs/tenants.md, \"Test control\")."
  }
}
