import Testing

@Suite struct AuthFlowMockTenantTestsPlaceholder {}
