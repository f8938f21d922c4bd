import Testing

@Suite struct AuthFlowJOSETestsPlaceholder {}
