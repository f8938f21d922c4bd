import Testing

@Suite struct AuthFlowHTTPTestsPlaceholder {}
