import Testing

@Suite struct AuthFlowRuntimeTestsPlaceholder {}
