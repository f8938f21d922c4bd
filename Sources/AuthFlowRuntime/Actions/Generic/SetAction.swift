public import AuthFlowCore
public import AuthFlowScenario

/// `set` — computes values and stores them in `vars` for the steps after it.
public struct SetAction: Action {

  public static let signature = ActionSignature(
    name: "set", summary: "Store values in `vars` for the steps that run after this one.", declaring: [],
    acceptsAnyParameters: true, definesVariables: true,
    results: .open([], others: "the step's own keys: each is `steps.<id>.KEY` as well as `vars.KEY`"))

  public static let documentation = """
    Every key becomes `vars.KEY`, and the step's result is the same mapping (`steps.ID.KEY`).
    Values may be any expression; a secret stays secret.
    Steps that do not depend on this one (other branches) may run before it: refer to the values
    from steps that list it in `needs` (or follow it in the list).
    """

  public static let example = """
    scenario: Store a value
    steps:
      - id: remember
        set:
          greeting: hello
          count: ${{ 1 + 2 }}
      - assert:
          that: ${{ vars.greeting == 'hello' && vars.count == 3 }}
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: set takes a mapping
      steps:
        - id: fails
          set: "${{ 'not a mapping' }}"
      """)

  public static let traits = ActionTraits(failures: [.invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    guard let members = parameters.objectValue else {
      throw ActionError(.invalidParameter, "set expects a mapping of names to values")
    }
    for (name, value) in members.sorted(by: { $0.key < $1.key }) {
      await context.setVariable(name, to: value)
    }
    return .success(parameters)
  }
}
