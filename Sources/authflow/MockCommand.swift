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

  func validate() throws {
    try FlagRange.check("--port", port, in: InputLimits.port)
  }

  func run() async throws {
    let loaded = fixture.map(FixtureLoader.load(path:)) ?? FixtureLoader.loadDefault()
    DiagnosticOutput.print(loaded.diagnostics, sources: [:])
    guard let tenantFixture = loaded.fixture, !loaded.diagnostics.hasErrors else {
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    let handle: MockTenantServer.Handle
    do {
      handle = try await MockTenantServer.start(
        fixture: tenantFixture, configuration: MockTenantConfiguration(host: host, port: port))
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
}
