import Testing

@Suite struct AuthFlowScenarioTestsPlaceholder {}
