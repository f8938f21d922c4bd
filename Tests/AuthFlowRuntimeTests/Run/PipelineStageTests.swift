import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockTenant
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

@testable import AuthFlowMockHosting

/// The stages `authflow run` composes — source → validated (with its flow graph) → plan → bound —
/// on files in a temporary directory, and the embedded tenant injected through
/// `EmbeddedTenantHost`.
@Suite struct PipelineStageTests {
  /// A directory with `files` (path → text) and an `authflow.yaml` with one mock tenant, removed by
  /// the caller.
  static func directory(_ files: [String: String]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stages-\(UUID().uuidString)")
    for (path, text) in files.merging(
      ["authflow.yaml": "tenants:\n  mock: { kind: mock }\n"], uniquingKeysWith: { a, _ in a })
    {
      let url = directory.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return directory
  }

  /// The scenarios of `directory` with its own `authflow.yaml` (not the one of the working directory).
  static func source(_ directory: URL) -> ScenarioSource {
    ScenarioSource(paths: [directory.path], configFile: directory.appendingPathComponent("authflow.yaml").path)
  }

  static let twoSteps = """
    scenario: Two steps
    tags: [smoke]
    steps:
      - id: first
        wait: 1ms
      - id: second
        needs: [first]
        wait: 1ms
    cleanup:
      - id: tidy
        wait: 1ms
    """

  @Test func theValidatedScenarioCarriesTheGraphItsInstancesRun() async throws {
    let directory = try Self.directory(["a.yaml": Self.twoSteps])
    defer { try? FileManager.default.removeItem(at: directory) }
    let suite = await Self.source(directory).validated(embedded: MockTenantHost())
    #expect(suite.isValid, "\(suite.diagnostics.map(\.description))")
    let validated = try #require(suite.scenarios.first)
    #expect(validated.graph.mainNodes.map(\.id) == ["first", "second"])
    #expect(validated.graph.node("second")?.dependencies == ["first"])
    #expect(validated.graph.cleanupNodes.map(\.id) == ["tidy"])
    let instance = try #require(suite.instances.first)
    #expect(instance.graph.nodes.map(\.id) == validated.graph.nodes.map(\.id))
  }

  /// A project inside the directory a run is given keeps its own tenants: read from the parent,
  /// its scenarios would run against the parent's `authflow.yaml` (or the embedded mock) and pass
  /// for the wrong tenants. Without `--config` that is an error naming the file; the project on
  /// its own, or with `--config`, runs.
  @Test func anAuthflowYAMLBelowTheGivenDirectoryThatTheRunWouldNotReadIsAnError() async throws {
    let directory = try Self.directory([
      "a.yaml": Self.twoSteps,
      "nested/authflow.yaml": "tenants:\n  other: { kind: mock }\n",
      "nested/b.yaml": Self.twoSteps.replacingOccurrences(of: "Two steps", with: "Nested"),
      // No scenario is beside or below this one: nothing would run against the wrong tenants.
      "tools/authflow.yaml": "tenants:\n  other: { kind: mock }\n",
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let nestedFile = directory.appendingPathComponent("nested/authflow.yaml").path
    for source in [ScenarioSource(paths: [directory.path]), ScenarioSource(paths: [directory.path + "/"])] {
      for suite in [
        await source.validated(embedded: MockTenantHost()), await source.planned(embedded: MockTenantHost()),
      ] {
        #expect(suite.isValid == false)
        let stray = suite.diagnostics.filter { $0.location?.file == nestedFile }
        #expect(stray.count == 1, "\(suite.diagnostics.map(\.description))")
        #expect(stray.first?.message.contains("have their own authflow.yaml, which this run would not read") == true)
        #expect(!suite.diagnostics.contains { $0.location?.file.hasSuffix("tools/authflow.yaml") == true })
      }
    }
    // Two projects given side by side: the first one's file is read, the second's is not (named
    // once, though both searches meet it).
    let twoProjects = await ScenarioSource(paths: [directory.path, directory.path + "/nested"])
      .validated(embedded: MockTenantHost())
    #expect(twoProjects.diagnostics.compactMap(\.location?.file) == [nestedFile])
    // On its own, or with the file named, nothing is left unread.
    let alone = await ScenarioSource(paths: [directory.path + "/nested"]).validated(embedded: MockTenantHost())
    #expect(alone.isValid, "\(alone.diagnostics.map(\.description))")
    let named = await Self.source(directory).validated(embedded: MockTenantHost())
    #expect(named.isValid, "\(named.diagnostics.map(\.description))")
  }

  @Test func aFileWithAnErrorGivesNoValidatedScenario() async throws {
    let broken = Self.twoSteps.replacingOccurrences(of: "needs: [first]", with: "needs: [frist]")
    let directory = try Self.directory(["a.yaml": broken])
    defer { try? FileManager.default.removeItem(at: directory) }
    let suite = await Self.source(directory).validated(embedded: MockTenantHost())
    #expect(!suite.isValid)
    #expect(suite.scenarios.isEmpty)
    #expect(suite.parsed.count == 1)
  }

  @Test func thePlanNamesAnUnknownTenantWithASuggestion() async throws {
    let directory = try Self.directory(["a.yaml": Self.twoSteps])
    defer { try? FileManager.default.removeItem(at: directory) }
    let suite = await Self.source(directory).validated(embedded: MockTenantHost())
    switch suite.plan(tenants: ["mok"], selection: Selection()) {
    case .success(let plan): Issue.record("planned on \(plan.tenantNames) for an unknown tenant")
    case .failure(let unknown):
      #expect(unknown.message == "no tenant named 'mok' (did you mean 'mock'?); known tenants: mock")
    }
  }

  @Test func thePlanTakesTheSelectionAndReportsUnknownTags() async throws {
    let other = Self.twoSteps.replacingOccurrences(of: "Two steps", with: "Other").replacingOccurrences(
      of: "[smoke]", with: "[slow]")
    let directory = try Self.directory(["a.yaml": Self.twoSteps, "b.yaml": other])
    defer { try? FileManager.default.removeItem(at: directory) }
    let suite = await Self.source(directory).validated(embedded: MockTenantHost())
    let plan = try suite.plan(tenants: nil, selection: Selection(tags: ["smoke", "smok"])).get()
    #expect(plan.tenantNames == ["mock"])
    #expect(plan.instances.map(\.name) == ["Two steps"])
    #expect(plan.loadedCount == 2)
    #expect(plan.unknownTags.map(\.tag) == ["smok"])
    #expect(plan.notRun.map(\.status) == [.interrupted])
  }

  @Test func bindingStartsTheInjectedMockAndTheRunWalksTheGraph() async throws {
    let directory = try Self.directory(["a.yaml": Self.twoSteps])
    defer { try? FileManager.default.removeItem(at: directory) }
    let suite = await Self.source(directory).validated(embedded: MockTenantHost())
    let plan = try suite.plan(tenants: nil, selection: Selection()).get()
    let secrets = SecretRegistry()
    let bound = try await plan.bind(
      TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: "."))
    let tenant = try #require(bound.tenants.first)
    #expect(tenant.context.baseURL.hasPrefix("http://127.0.0.1:"))
    #expect(tenant.context.clients["native"] != nil)
    let transport = LiveTransport()
    let runs = bound.runs(
      services: RunServices(secrets: secrets, transport: transport), jobs: 1, keepsStepResults: true)
    let reports = await runs.run(plan.instances)
    await bound.stop()
    try? await transport.shutdown()
    let steps: [StepReport] = try #require(reports.first?.scenarios.first?.steps)
    #expect(steps.map(\.id) == ["first", "second", "tidy"])
    #expect(steps.map(\.needs) == [[], ["first"], []])
    #expect(steps.allSatisfy { $0.status == .passed })
  }

  @Test func withoutAnEmbeddedHostAMockTenantIsAnEnvironmentFailure() async throws {
    let resolver = TenantResolver(environment: [:], secrets: SecretRegistry(), projectDirectory: ".")
    let profile = try #require(ProjectConfig.embedded.tenants.first)
    do {
      let resolved = try await resolver.resolve(profile)
      await resolved.stop()
      Issue.record("a mock tenant started without an embedded host")
    } catch {
      #expect(error.isEnvironment)
      #expect(error.message.contains("no embedded mock tenant"))
    }
  }

  @Test func anInvalidFixtureIsInvalidInputWithItsDiagnostics() async throws {
    let directory = try Self.directory(["bad.yaml": "tenant: [not, a, mapping]\n"])
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let tenant = try await MockTenantHost().start(fixturePath: directory.appendingPathComponent("bad.yaml").path)
      await tenant.stop()
      Issue.record("a mock started from an invalid fixture")
    } catch {
      #expect(!error.isEnvironment)
      #expect(!error.diagnostics.isEmpty)
    }
    #expect(MockTenantHost().profileNames(fixturePath: directory.appendingPathComponent("none.yaml").path) == nil)
    #expect(MockTenantHost().profileNames(fixturePath: nil)?.clients.contains("native") == true)
    #expect(MockTenantHost().profileNames(fixturePath: nil)?.users.contains("alice") == true)
  }

  @Test func aRunningMockHasTheCapabilitiesItsFixtureTurnsOn() async throws {
    let builtIn = try await MockTenantHost().start(fixturePath: nil)
    let defaults = builtIn.capabilities
    await builtIn.stop()
    // Off by default, as on Auth0: the fixture must turn registration on.
    #expect(!defaults.contains("dynamic_client_registration"))
    #expect(defaults.contains("refresh_token_rotation"))
    let fixture = """
      tenant: { dynamic_client_registration: true, refresh_token_rotation: false }
      clients:
        native: { client_id: native-id, type: native, callbacks: ["https://app.example.com/callback"] }
      """
    let directory = try Self.directory(["switched.yaml": fixture])
    defer { try? FileManager.default.removeItem(at: directory) }
    let switched = try await MockTenantHost().start(fixturePath: directory.appendingPathComponent("switched.yaml").path)
    let capabilities = switched.capabilities
    await switched.stop()
    #expect(capabilities.contains("dynamic_client_registration"))
    #expect(!capabilities.contains("refresh_token_rotation"))
  }

  /// `authflow run`'s own mock keeps 250 entries per store for each job (1,000 to 5,000), and the
  /// host starts its tenants with the limits it was given.
  @Test func aRunsOwnMockIsCappedByItsJobs() async throws {
    #expect(MockStateLimits.embedded(jobs: 1).maxEntriesPerStore == 1_000)
    #expect(MockStateLimits.embedded(jobs: 4).maxEntriesPerStore == 1_000)
    #expect(MockStateLimits.embedded(jobs: 8).maxEntriesPerStore == 2_000)
    #expect(MockStateLimits.embedded(jobs: 256).maxEntriesPerStore == MockStateLimits().maxEntriesPerStore)
    let started = try await MockTenantHost(stateLimits: .embedded(jobs: 8)).start(fixturePath: nil)
    let limits = try #require(started as? RunningMockTenant).handle.tenant.limits
    await started.stop()
    #expect(limits.maxEntriesPerStore == 2_000)
    let standalone = try await MockTenantHost().start(fixturePath: nil)
    let defaults = try #require(standalone as? RunningMockTenant).handle.tenant.limits
    await standalone.stop()
    #expect(defaults.maxEntriesPerStore == 5_000)
  }
}
