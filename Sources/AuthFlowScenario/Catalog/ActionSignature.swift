/// What the parser and the JSON Schema know about an action: its name, parameters and forms.
///
/// The runtime's action registry supplies one per action, so the parser validates exactly the
/// actions that exist and the schema cannot drift from them.
public struct ActionSignature: Sendable, Hashable {
  /// The step key that selects the action (`web_auth`, `http`, `wait`, …).
  public var name: String
  /// One line: what the action does.
  public var summary: String
  /// The parameters of the mapping form, in the order documentation lists them.
  public var parameters: [ParameterSignature]
  /// The parameter a scalar stands for, when the action also takes a scalar (`wait: 2s` is
  /// `wait: { duration: 2s }`). The parser keeps the scalar as written in `ActionCall.parameters`.
  public var scalarForm: ParameterSignature?
  /// True for open actions whose mapping takes any key besides the listed parameters (`set`).
  public var acceptsAnyParameters: Bool
  /// True for actions whose mapping keys become `vars` (`set`), so the validator knows them.
  public var definesVariables: Bool
  /// The step's result: its top-level fields, which `steps.<id>.FIELD` and `expect` keys are
  /// checked against at validate time (`error` is always allowed: any action may answer with a
  /// protocol error), and whether it may hold others (``ResultSchema/open(_:others:)``). Every
  /// action of the runtime declares one; nil only in catalogs made for tests, whose results are
  /// not checked.
  public var results: ResultSchema?

  public init(
    name: String, summary: String = "", parameters: [ParameterSignature] = [],
    scalarForm: ParameterSignature? = nil, acceptsAnyParameters: Bool = false, definesVariables: Bool = false,
    results: ResultSchema? = nil
  ) {
    self.results = results
    self.definesVariables = definesVariables
    self.name = name
    self.summary = summary
    self.parameters = parameters
    self.scalarForm = scalarForm
    self.acceptsAnyParameters = acceptsAnyParameters
  }

  /// The names a result path may start with, `error` included; nil when the result is open or
  /// not declared.
  public var resultFieldNames: Set<String>? { results?.checkedNames }

  /// The parts of a step's `parameters` that are conditions (``ParameterSignature/isCondition``:
  /// `assert`'s `that`), each with its key — nil for the scalar form (`assert: ${{ … }}`).
  public func conditions(in parameters: Template) -> [(key: String?, template: Template)] {
    if case .object(let members, _) = parameters {
      return members.compactMap { member in
        parameter(member.key.value)?.isCondition == true ? (member.key.value, member.value) : nil
      }
    }
    return scalarForm?.isCondition == true ? [(nil, parameters)] : []
  }

  /// The parameter named `name`.
  public func parameter(_ name: String) -> ParameterSignature? {
    parameters.first { $0.name == name }
  }
}
