import Testing

@Suite struct AuthFlowReportingTestsPlaceholder {}
