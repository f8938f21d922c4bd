import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct ScenarioInstanceTests {
  @Test func cartesianProductInDeclarationOrder() throws {
    let (scenario, diagnostics) = load(
      MarkedText(
        """
        scenario: Login works
        matrix:
          browser: [chrome, firefox]
          connection: [email, "sms"]
          size: [{w: 1}]
        steps:
          - logout:
        """))
    expectClean(diagnostics)
    let instances = try #require(scenario).instances
    #expect(
      instances.map(\.name) == [
        "Login works [browser: chrome, connection: email, size: {w: 1}]",
        "Login works [browser: chrome, connection: sms, size: {w: 1}]",
        "Login works [browser: firefox, connection: email, size: {w: 1}]",
        "Login works [browser: firefox, connection: sms, size: {w: 1}]",
      ])
    #expect(instances.map(\.index) == [0, 1, 2, 3])
    #expect(instances[2].matrixValue("browser")?.literalValue == "firefox")
    #expect(instances[2].matrixValue("size")?.literalValue == ["w": 1])
    #expect(instances[2].matrixValue("nope") == nil)
  }

  @Test func withoutAMatrixThereIsOneInstance() throws {
    let (scenario, _) = load(MarkedText("scenario: Plain\nsteps:\n  - logout:\n"))
    let instances = try #require(scenario).instances
    #expect(instances.map(\.name) == ["Plain"])
    #expect(instances.first?.matrix.isEmpty == true)
  }
}
