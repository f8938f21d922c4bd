// AuthFlowMockTenant
