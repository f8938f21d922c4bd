import Testing

@Suite struct AuthFlowExpressionTestsPlaceholder {}
