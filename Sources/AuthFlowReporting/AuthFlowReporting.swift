// AuthFlowReporting
