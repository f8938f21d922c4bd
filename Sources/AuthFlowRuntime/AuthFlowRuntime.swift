// AuthFlowRuntime
