/// The sorted list of actions the parser accepts, looked up by name.
public struct ActionCatalog: Sendable {
  /// Every action, sorted by name.
  public let actions: [ActionSignature]
  private let byName: [String: ActionSignature]
  /// Each action's ``ActionSignature/resultFieldNames``, built once: the validator asks for them
  /// for every step and every `steps.<id>.FIELD` of every file.
  private let resultFieldNamesByName: [String: Set<String>]

  /// Builds a catalog; when two signatures share a name, the first wins.
  public init(_ actions: [ActionSignature]) {
    var byName: [String: ActionSignature] = [:]
    for action in actions where byName[action.name] == nil {
      byName[action.name] = action
    }
    self.byName = byName
    self.resultFieldNamesByName = byName.compactMapValues(\.resultFieldNames)
    self.actions = byName.values.sorted { $0.name < $1.name }
  }

  /// The action named `name`, if there is one.
  public subscript(name: String) -> ActionSignature? { byName[name] }

  /// The result fields of the action named `name` (``ActionSignature/resultFieldNames``); nil
  /// when there is no such action or its result is open.
  public func resultFieldNames(of name: String) -> Set<String>? { resultFieldNamesByName[name] }

  /// Every action name, sorted.
  public var names: [String] { actions.map(\.name) }
}
