import Testing

@Suite struct AuthFlowCoreTestsPlaceholder {}
