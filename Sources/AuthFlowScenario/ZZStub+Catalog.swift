// TEMPORARY: replaced by the scenario branch's ActionCatalog / ScenarioInstance on merge.
public import AuthFlowCore

public indirect enum ParameterType: Sendable {
  case string, int, number, bool, duration, any, map
  case object([ParameterSignature]?)
  case array(ParameterType)
  case oneOf([String])
}

public struct ParameterSignature: Sendable {
  public var name: String
  public var type: ParameterType
  public var required: Bool
  public var summary: String
  public init(name: String, type: ParameterType, required: Bool = false, summary: String) {
    self.name = name
    self.type = type
    self.required = required
    self.summary = summary
  }
}

public struct ActionSignature: Sendable {
  public var name: String
  public var summary: String
  public var parameters: [ParameterSignature]
  public var scalarParameter: ParameterType?
  public var acceptsAnyParameters: Bool
  public init(name: String, summary: String, parameters: [ParameterSignature], scalarParameter: ParameterType? = nil, acceptsAnyParameters: Bool = false) {
    self.name = name
    self.summary = summary
    self.parameters = parameters
    self.scalarParameter = scalarParameter
    self.acceptsAnyParameters = acceptsAnyParameters
  }
}

public struct ActionCatalog: Sendable {
  public var signatures: [ActionSignature]
  public init(_ signatures: [ActionSignature]) { self.signatures = signatures.sorted { $0.name < $1.name } }
}

public struct ScenarioInstance: Sendable {
  public var scenario: Scenario
  public var name: String
  public var matrix: [String: Value]
  public init(scenario: Scenario, name: String, matrix: [String: Value]) {
    self.scenario = scenario
    self.name = name
    self.matrix = matrix
  }
}
