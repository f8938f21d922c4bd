import AuthFlowCore
import AuthFlowTestSupport
import Testing

@testable import AuthFlowScenario

@Suite struct MatcherParsingTests {
  private func matchers(_ yaml: String) -> [[Matcher.Kind]] {
    let (scenario, _) = load(MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n" + yaml))
    return scenario?.steps.first?.expectations.map { $0.matchers.map(\.kind) } ?? []
  }

  @Test func plainValuesMappingsOfMatchersAndObjects() {
    #expect(matchers("      a: 1") == [[.equals]])
    #expect(matchers("      a: { equals: 1, not_equals: 2 }") == [[.equals, .notEquals]])
    #expect(matchers("      a: { equals: { name: alice, age: 3 } }") == [[.equals]])
    #expect(matchers("      a: [1, 2]") == [[.equals]])
    #expect(
      matchers("      a: { not_contains: x, not_matches: '^b', not_one_of: [1, 2] }")
        == [[.notContains, .notMatches, .notOneOf]])
    #expect(matchers("      a: { gt: '2024-01-01', lte: \"${{ vars.x }}\", type: secret }") == [[.gt, .lte, .type]])
    #expect(
      matchers(
        "      a: { matches: '^a+$', contains: x, starts_with: y, one_of: [1], type: string, gt: 1, lte: 2.5 }")
        == [[.matches, .contains, .startsWith, .oneOf, .type, .gt, .lte]])
    #expect(matchers("      a: { within: { of: 10, seconds: 5s } }") == [[.within]])
  }

  @Test func anObjectOperandKeepsItsMembers() throws {
    let (scenario, _) = load(
      MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { equals: { name: alice } }"))
    let matcher = try #require(scenario?.steps.first?.expectations.first?.matchers.first)
    #expect(matcher.operand.literalValue == ["name": "alice"])
  }

  @Test func misspeltMatcherBesideOthers() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { exists: true, 1️⃣not_equal: 3 }
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "unknown matcher 'not_equal'",
      hint: "did you mean 'not_equals'? Or, to compare with an object that has the key 'not_equal', "
        + "write 'equals: { not_equal: … }'")
  }

  @Test func misspeltMatcherAlone() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { 1️⃣startswith: abc }
      """)
    let found = expectDiagnostic(diagnostics(input), at: input["1️⃣"], "unknown matcher 'startswith'")
    #expect(found?.hint?.hasPrefix("did you mean 'starts_with'?") == true)
  }

  @Test func mixOfMatchersAndPlainKeys() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { equals: 1, 1️⃣name: alice }
      """)
    let found = expectDiagnostic(diagnostics(input), at: input["1️⃣"], "unknown matcher 'name'")
    #expect(
      found?.hint?.hasSuffix("to compare with an object that has the key 'name', write 'equals: { name: … }'") == true)
  }

  /// What used to be an equality check against an object is an error at each key that is not a
  /// matcher, saying how to compare with an object.
  @Test func aMappingWithoutMatchersIsNotAnObjectToCompareWith() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { 1️⃣name: alice, 2️⃣age: 3 }
            b: { 3️⃣greater_than: 3 }
            c: { 4️⃣not_contain: x }
            d: 5️⃣{}
      """)
    let found = diagnostics(input)
    #expect(found.count == 5, "\(found.map(\.message))")
    let name = expectDiagnostic(found, at: input["1️⃣"], "unknown matcher 'name'")
    #expect(
      name?.hint?.hasPrefix("the matchers are contains, equals, exists, gt, gte, lt, lte, matches, not_contains")
        == true)
    #expect(name?.hint?.hasSuffix("write 'equals: { name: … }'") == true)
    expectDiagnostic(found, at: input["2️⃣"], "unknown matcher 'age'")
    let greater = expectDiagnostic(found, at: input["3️⃣"], "unknown matcher 'greater_than'")
    #expect(greater?.hint?.hasPrefix("did you mean 'gt'?") == true, "\(greater?.hint ?? "")")
    let negation = expectDiagnostic(found, at: input["4️⃣"], "unknown matcher 'not_contain'")
    #expect(negation?.hint?.hasPrefix("did you mean 'not_contains'?") == true)
    expectDiagnostic(
      found, at: input["5️⃣"], "an expectation needs at least one matcher, found an empty mapping",
      hint: "to compare with an empty object, write 'equals: {}'")
  }

  /// The names other tools give the matchers (Jest, Chai, JSON Schema, Hurl) suggest authflow's,
  /// which an edit distance cannot find: `greater_than` is three edits from nothing near `gt`.
  @Test(
    "A matcher named as another tool names it suggests authflow's",
    arguments: [
      ("greater_than", "gt"), ("greaterThanOrEqual", "gte"), ("less_than", "lt"), ("lessThanOrEqual", "lte"),
      ("regex", "matches"), ("includes", "contains"), ("in", "one_of"), ("toEqual", "equals"), ("neq", "not_equals"),
      ("min", "gte"), ("begins-with", "starts_with"), ("isDefined", "exists"),
    ])
  func otherToolsNames(_ name: String, _ suggested: String) {
    let input = MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { 1️⃣\"\(name)\": 1 }")
    let found = expectDiagnostic(diagnostics(input), at: input["1️⃣"], "unknown matcher '\(name)'")
    #expect(found?.hint?.hasPrefix("did you mean '\(suggested)'?") == true, "\(found?.hint ?? "")")
  }

  @Test func everyOtherToolsNameSuggestsAMatcherThatExists() {
    let names = Set(Matcher.Kind.allCases.map(\.rawValue))
    for (name, suggested) in Diagnostic.otherToolsNames {
      #expect(names.contains(suggested), "\(name) suggests '\(suggested)', which is not a matcher")
      #expect(Diagnostic.normalizedMatcherName(name) == name, "'\(name)' is not normalised")
    }
  }

  /// A matcher negated as other languages write it gets the negated matcher suggested, never the
  /// positive one, which means the opposite.
  @Test func aNegatedNameSuggestsTheNegatedMatcher() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { 1️⃣"!contains": x }
            b: { 2️⃣"not starts_with": x }
            c: { 3️⃣notEquals: x }
            d: { 4️⃣"!gt": 3 }
      """)
    let found = diagnostics(input)
    #expect(found.count == 4, "\(found.map(\.message))")
    let bang = expectDiagnostic(found, at: input["1️⃣"], "unknown matcher '!contains'")
    #expect(bang?.hint?.hasPrefix("did you mean 'not_contains'?") == true, "\(bang?.hint ?? "")")
    let spaced = expectDiagnostic(found, at: input["2️⃣"], "unknown matcher 'not starts_with'")
    #expect(spaced?.hint?.hasPrefix("did you mean 'not_starts_with'?") == true, "\(spaced?.hint ?? "")")
    let camel = expectDiagnostic(found, at: input["3️⃣"], "unknown matcher 'notEquals'")
    #expect(camel?.hint?.hasPrefix("did you mean 'not_equals'?") == true, "\(camel?.hint ?? "")")
    // An ordering's negation is its opposite, never the ordering itself.
    let ordering = expectDiagnostic(found, at: input["4️⃣"], "unknown matcher '!gt'")
    #expect(ordering?.hint?.hasPrefix("did you mean 'lte'? (the negation of 'gt')") == true, "\(ordering?.hint ?? "")")
  }

  @Test func invalidLiteralRegex() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { matches: 1️⃣"([a-z" }
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "invalid regular expression '([a-z'")
  }

  @Test func badOperands() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { exists: 1️⃣yes please }
            b: { type: 2️⃣strng }
            c: { gt: 3️⃣[ten] }
            d: { one_of: 4️⃣x, not_one_of: 7️⃣y, not_matches: 8️⃣"(" }
            e: { within: 5️⃣{ of: 1 } }
            6️⃣"f..g": 1
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'exists' expects true or false, found a string")
    expectDiagnostic(found, at: input["2️⃣"], "unknown type 'strng'", hint: "did you mean 'string'?")
    expectDiagnostic(found, at: input["3️⃣"], "'gt' expects a number or a string, found a list")
    expectDiagnostic(found, at: input["4️⃣"], "'one_of' expects a list of values, found a string")
    expectDiagnostic(found, at: input["7️⃣"], "'not_one_of' expects a list of values, found a string")
    expectDiagnostic(found, at: input["8️⃣"], "invalid regular expression '('")
    expectDiagnostic(found, at: input["5️⃣"], "missing required key 'seconds' in 'within'")
    expectDiagnostic(found, at: input["6️⃣"], "invalid path 'f..g': it has an empty segment")
  }
}
