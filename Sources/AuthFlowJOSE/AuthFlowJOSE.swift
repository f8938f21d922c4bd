// AuthFlowJOSE
