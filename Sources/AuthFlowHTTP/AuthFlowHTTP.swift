// AuthFlowHTTP
