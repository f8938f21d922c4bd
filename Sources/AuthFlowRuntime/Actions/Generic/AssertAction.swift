public import AuthFlowCore
public import AuthFlowScenario

/// `assert` — checks a condition over earlier results, or exposes a value to `expect`.
public struct AssertAction: Action {
  static let that = Parameter<Value>("that", summary: "An expression that must be true.", isCondition: true)
  static let value = Parameter<Value>("value", summary: "A value to check with `expect` matchers (as `value`).")
  static let message = Parameter<String>(
    "message", summary: "What to say when `that` is false.", isFreeText: true)

  public static let signature = ActionSignature(
    name: "assert", summary: "Check a condition over values computed from earlier steps.",
    declaring: [Self.that, Self.value, Self.message],
    scalarForm: ParameterSignature("that", .any, summary: "An expression that must be true.", isCondition: true),
    results: .closed([ResultField("value", "The `value` given (else the condition), for `expect` matchers.")]))

  public static let documentation = """
    Two forms, which can be combined:

    - `that:` an expression that must be truthy; the step fails with `message` otherwise.
    - `value:` any value; the step's result is `{ value: … }`, so `expect` can use every matcher
      on it (`expect: { value: { gt: 3 } }`).

    The scalar form `assert: ${{ … }}` is short for `assert: { that: ${{ … }} }`.
    """

  public static let example = """
    scenario: Compare two values
    vars:
      a: 3
    steps:
      - assert:
          that: ${{ vars.a > 2 }}
          message: a must be more than 2
      - assert:
          value: ${{ vars.a + 1 }}
        expect:
          value: { equals: 4, lt: 10 }
    """

  public static let failingExample = FailingExample(
    .flow,
    scenario: """
      scenario: A false assertion fails the step
      steps:
        - id: fails
          assert:
            that: ${{ 1 == 2 }}
            message: one is not two
      """)

  public static let traits = ActionTraits(failures: [.flow, .invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let members = parameters.objectValue
    let declared = Set(Self.signature.parameters.map(\.name))
    let isForm = members.map { !$0.isEmpty && Set($0.keys).isSubset(of: declared) } ?? false
    let condition = isForm ? members?[Self.that.name] : parameters
    if let condition, !condition.isTruthy {
      let message = isForm ? members?[Self.message.name]?.display() : nil
      throw ActionError(.flow, message ?? "assertion failed: the condition is \(condition.display())")
    }
    return .success(["value": (isForm ? members?[Self.value.name] : nil) ?? condition ?? .null])
  }
}
