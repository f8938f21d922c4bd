public import AuthFlowCore
public import AuthFlowScenario

/// One parameter of an action, declared once and used twice: its ``ParameterSignature`` goes into
/// the action's ``ActionSignature`` (what the parser checks, the schema and the docs describe) and
/// the action reads its value with it (`try input[Self.scope]`, `try input.required(Self.token)`),
/// typed by `Wrapped`, so the name read and the name declared cannot drift apart.
public struct Parameter<Wrapped: ParameterValue>: ParameterDeclaration {
  public let signature: ParameterSignature

  /// Declares a parameter; the arguments are those of ``ParameterSignature``.
  public init(
    _ name: String, _ type: ParameterType = Wrapped.parameterType, required: Bool = false, summary: String = "",
    maximumDuration: Duration = InputLimits.longestDuration, isCondition: Bool = false, isFreeText: Bool = false,
    formValues: [String]? = nil
  ) {
    signature = ParameterSignature(
      name, type, required: required, summary: summary, maximumDuration: maximumDuration, isCondition: isCondition,
      isFreeText: isFreeText, formValues: formValues)
  }

  /// The key under the action.
  public var name: String { signature.name }
}

/// Anything that stands for one parameter in an action's signature: a typed ``Parameter`` (or a
/// plain ``ParameterSignature``, for a parameter the action reads in another way).
public protocol ParameterDeclaration: Sendable {
  var signature: ParameterSignature { get }
}

extension ParameterSignature: ParameterDeclaration {
  public var signature: ParameterSignature { self }
}

extension ActionSignature {
  /// A signature whose parameters are the action's declarations, in the order the docs list them.
  public init(
    name: String, summary: String = "", declaring parameters: [any ParameterDeclaration],
    scalarForm: (any ParameterDeclaration)? = nil, acceptsAnyParameters: Bool = false,
    definesVariables: Bool = false, results: ResultSchema? = nil
  ) {
    self.init(
      name: name, summary: summary, parameters: parameters.map(\.signature), scalarForm: scalarForm?.signature,
      acceptsAnyParameters: acceptsAnyParameters, definesVariables: definesVariables, results: results)
  }
}

/// A Swift type a parameter's value is read as, with the messages that name the parameter.
public protocol ParameterValue: Sendable {
  /// What the parser checks and the schema says, unless the declaration names another type.
  static var parameterType: ParameterType { get }
  /// The value of `parameter` in `input`; nil when absent or null.
  static func read(_ parameter: ParameterSignature, from input: Parameters) throws(ActionError) -> Self?
}

extension String: ParameterValue {
  public static var parameterType: ParameterType { .string }
  /// Text; a number, a boolean or a JWT is read as its text.
  public static func read(_ parameter: ParameterSignature, from input: Parameters) throws(ActionError) -> String? {
    guard let member = input.raw(parameter) else { return nil }
    let text: String
    switch member.unwrapped {
    case .string(let string): text = string
    case .int(let number): text = String(number)
    case .double(let number): text = String(number)
    case .bool(let flag): text = String(flag)
    case .jwt(let token): text = token.raw
    default: throw .invalidParameter(parameter.name, "expected a string, found \(member.typeName)")
    }
    // A closed set is checked here too: validation sees only literals, not what `${{ … }}` gives.
    if case .oneOf(let choices) = parameter.type, !choices.contains(text) {
      let found = member.containsSecret ? "a secret" : "'\(text)'"
      throw .invalidParameter(parameter.name, "expected \(parameter.type.description), found \(found)")
    }
    return text
  }
}

extension Bool: ParameterValue {
  public static var parameterType: ParameterType { .bool }
  public static func read(_ parameter: ParameterSignature, from input: Parameters) throws(ActionError) -> Bool? {
    guard let member = input.raw(parameter) else { return nil }
    guard let flag = member.boolValue else { throw .invalidParameter(parameter.name, "expected true or false") }
    return flag
  }
}

extension Int: ParameterValue {
  public static var parameterType: ParameterType { .int }
  /// An integer, or a string holding one.
  public static func read(_ parameter: ParameterSignature, from input: Parameters) throws(ActionError) -> Int? {
    guard let member = input.raw(parameter) else { return nil }
    if let number = member.intValue { return number }
    if let text = member.stringValue, let number = Int(text) { return number }
    throw .invalidParameter(parameter.name, "expected an integer, found \(member.typeName)")
  }
}

extension Duration: ParameterValue {
  public static var parameterType: ParameterType { .duration }
  /// At most the declaration's `maximumDuration`.
  public static func read(_ parameter: ParameterSignature, from input: Parameters) throws(ActionError) -> Duration? {
    guard let member = input.raw(parameter) else { return nil }
    return try Parameters.duration(member, for: parameter)
  }
}

extension Value: ParameterValue {
  public static var parameterType: ParameterType { .any }
  public static func read(_ parameter: ParameterSignature, from input: Parameters) throws(ActionError) -> Value? {
    input.raw(parameter)
  }
}

extension Dictionary: ParameterValue where Key == String, Value == AuthFlowCore.Value {
  public static var parameterType: ParameterType { .map }
  public static func read(
    _ parameter: ParameterSignature, from input: Parameters
  ) throws(ActionError) -> [String: AuthFlowCore.Value]? {
    guard let member = input.raw(parameter) else { return nil }
    guard let members = member.objectValue else {
      throw .invalidParameter(parameter.name, "expected a mapping, found \(member.typeName)")
    }
    return members
  }
}

extension Parameters {
  /// The value of `parameter`, or nil when the step does not give it (or gives null).
  public subscript<Wrapped>(_ parameter: Parameter<Wrapped>) -> Wrapped? {
    get throws(ActionError) { try Wrapped.read(parameter.signature, from: self) }
  }

  /// The value of `parameter`; "parameter 'NAME': is required" when the step does not give it.
  public func required<Wrapped>(_ parameter: Parameter<Wrapped>) throws(ActionError) -> Wrapped {
    guard let value = try self[parameter] else { throw .invalidParameter(parameter.name, "is required") }
    return value
  }

  /// A mapping parameter as name–value pairs of strings (headers, query, form fields).
  public func stringMap(_ parameter: Parameter<[String: Value]>) throws(ActionError) -> [(String, String)] {
    try stringMap(parameter.name, try self[parameter] ?? [:])
  }

  /// True when the step gives `parameter` (a non-null value).
  public func contains(_ parameter: some ParameterDeclaration) -> Bool {
    raw(parameter) != nil
  }
}
