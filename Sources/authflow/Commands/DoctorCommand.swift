import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowRun
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// `authflow doctor --tenant NAME`: a preflight of one tenant before scenarios run against it.
struct DoctorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check a tenant: discovery, issuer, JWKS, client profiles and capabilities.",
    discussion: """
      Prints a check list: ✓ passed, ✗ failed (with what to fix), · information. Secrets are never \
      printed. Exit codes: 0 no problem; 1 a check failed (issuer mismatch, unusable client \
      profile, missing endpoint); 2 invalid profile or usage; 3 the tenant could not be reached or \
      misbehaved (discovery or JWKS unreachable or malformed). With --probe, flows are tried to \
      learn what no discovery document states (sso_session, pkce_required, refresh_token_rotation, \
      and pkce when discovery leaves it out); a declared capability the probe finds absent fails.
      """)

  @Option(name: .long, help: "The tenant profile to check (default: default_tenant of authflow.yaml, else mock).")
  var tenant: String?

  @Option(name: .long, help: "The tenant profiles file (default: authflow.yaml in the working directory).")
  var config: String?

  @Flag(
    name: .long,
    help:
      "Try flows to learn sso_session, pkce_required and refresh_token_rotation (signs in as a user of the profile), and send the inbox a test message."
  )
  var probe = false

  @OptionGroup(title: "Transport limits")
  var transportOptions: TransportOptions

  func run() async throws {
    let project = Pipeline.loadProject(explicit: config, near: [])
    DiagnosticOutput.print(project.diagnostics, sources: project.sources)
    guard !project.diagnostics.hasErrors else { throw ExitCode(AuthFlowExitCode.invalidInput.rawValue) }
    let tenantName = tenant ?? project.config.defaultTenantName
    let known = project.config.tenants.map(\.name.value)
    // As `run`: no name, and a file whose tenants the mock would stand in for, is an error.
    if tenant == nil, project.config.wouldPassOverItsTenants {
      let unknown = RunPlan.UnknownTenant(name: tenantName, known: known, passedOver: project.config.file)
      Console.error("error: \(unknown.message)")
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    guard let profile = project.config.tenant(named: tenantName) else {
      Console.error("error: \(RunPlan.UnknownTenant(name: tenantName, known: known).message)")
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    let secrets = SecretRegistry(revealSecrets: false)
    let transport = LiveTransport(configuration: try transportOptions.parsed())
    let projectDirectory =
      project.config.file.isEmpty ? "." : (project.config.file as NSString).deletingLastPathComponent
    let resolver = TenantResolver(
      embedded: MockTenantHost(), inboxHost: RunInboxHost(), environment: ProcessInfo.processInfo.environment,
      secrets: secrets,
      projectDirectory: projectDirectory,
      transport: transport)
    let report: DoctorReport
    do {
      let probe =
        self.probe
        ? CapabilityProbe(
          services: RunServices(
            secrets: secrets, transport: transport, environment: ProcessInfo.processInfo.environment))
        : nil
      report = try await TenantDoctor(transport: transport, probe: probe, inboxHost: RunInboxHost()).diagnose(
        profile, resolver: resolver)
    } catch {
      try? await transport.shutdown()
      DiagnosticOutput.print(error.diagnostics, sources: project.sources)
      Console.error("error: tenant '\(tenantName)': \(secrets.scrub(error.message))")
      throw ExitCode((error.isEnvironment ? AuthFlowExitCode.environment : .invalidInput).rawValue)
    }
    try? await transport.shutdown()
    Console.out(secrets.scrub(report.render()))
    if report.exitCode != .success { throw ExitCode(report.exitCode.rawValue) }
  }
}
