import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// A condition that is a string held whatever the tenant answered: any string but `""` is
/// truthy, so `that: "${{ steps.one.x }} == 2"` (the comparison left outside the braces) passed,
/// as did `that: "false"`, and an `if:` written that way always ran its step. With the real action
/// catalog (so `assert`'s `that` is marked a condition where the action declares it), each such
/// condition is a located error; the same conditions written inside one `${{ … }}` are clean.
@Suite struct StringConditionTests {
  static func diagnostics(_ yaml: String) -> [Diagnostic] {
    ScenarioLoader(catalog: ActionRegistry.catalog, functions: Pipeline.functions).load(text: yaml, file: "c.yaml")
      .diagnostics
  }

  @Test func aConditionThatIsAStringIsAnError() {
    let found = Self.diagnostics(
      """
      scenario: string conditions
      steps:
        - id: one
          set: { x: 1 }
        - id: form
          assert: { that: "${{ steps.one.x }} == 2", message: compared as text }
        - id: short
          assert: "${{ steps.one.x }} == 3"
        - id: literal
          assert: { that: "false" }
        - id: guarded
          if: "${{ steps.one.x }} == 5"
          assert: ${{ true }}
        - id: polled
          set: { y: 1 }
          retry: { attempts: 2, until: "${{ steps.polled.y }}${{ 1 }}" }
      """)
    #expect(found.allSatisfy { $0.isError })
    #expect(found.map { $0.location?.line } == [6, 8, 10, 12, 16], "\(found.map(\.description))")
    #expect(found.map { $0.location?.column } == [22, 14, 21, 10, 35], "\(found.map(\.description))")
    let labels = found.map { $0.message.components(separatedBy: " is ").first ?? "" }
    #expect(labels == ["assert's 'that'", "'assert'", "assert's 'that'", "'if'", "'retry.until'"])
    #expect(found.allSatisfy { $0.message.hasSuffix("so this condition cannot fail") })
    #expect(found[2].message.contains(#"the string "false""#))
    #expect(found.allSatisfy { $0.hint?.contains("inside one ${{ … }}") == true })
  }

  @Test func conditionsInsideOneExpressionAreClean() {
    let found = Self.diagnostics(
      """
      scenario: expression conditions
      steps:
        - id: one
          set: { x: 1 }
        - id: form
          assert: { that: "${{ steps.one.x == 1 }}", message: compared as numbers }
        - id: short
          assert: " ${{ steps.one.x == 1 }} "
        - id: literal
          assert: { that: true }
        - id: guarded
          if: ${{ steps.one.x == 1 }}
          assert: { value: "a value ${{ steps.one.x }} is not a condition" }
        - id: polled
          set: { y: 1 }
          retry: { attempts: 2, until: "${{ steps.polled.y == 1 }}" }
      """)
    #expect(found.isEmpty, "\(found.map(\.description))")
  }
}
