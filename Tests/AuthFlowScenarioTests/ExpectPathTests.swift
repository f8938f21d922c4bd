import Testing

@testable import AuthFlowScenario

@Suite struct ExpectPathTests {
  @Test(arguments: [
    ("status", ["status"]),
    ("id_token.claims.email", ["id_token", "claims", "email"]),
    ("body.items[0].id", ["body", "items", "0", "id"]),
    ("claims[\"https://x.io/roles\"]", ["claims", "https://x.io/roles"]),
    ("claims['a.b'].c", ["claims", "a.b", "c"]),
  ])
  func validPaths(path: String, segments: [String]) throws {
    #expect(try ExpectPath.parse(path).get() == segments)
  }

  @Test(arguments: [
    ("", "it is empty", 0),
    ("a..b", "it has an empty segment", 2),
    ("a.", "it ends with '.'", 1),
    ("a[0", "'[' is not closed by ']'", 1),
    ("a]", "unexpected ']'", 1),
    ("a[0]b", "expected '.' or '['", 4),
  ])
  func invalidPaths(path: String, reason: String, offset: Int) {
    guard case .failure(let problem) = ExpectPath.parse(path) else {
      Issue.record("'\(path)' should be invalid")
      return
    }
    #expect(problem.reason == reason)
    #expect(problem.offset == offset)
  }

  /// The byte split of plain paths gives what the character loop gives, for every path of up to
  /// four pieces over the characters that matter.
  @Test func thePlainPathShortcutAgreesWithTheCharacterLoop() {
    let pieces = ["a", "id", ".", "..", "[", "]", "[0]", "\"", "'", "é", "\r\n", " ", "_", "0"]
    var paths: [String] = [""]
    var frontier: [String] = [""]
    for _ in 0..<4 {
      frontier = frontier.flatMap { prefix in pieces.map { prefix + $0 } }
      paths += frontier
    }
    for path in paths {
      #expect(ExpectPath.parse(path) == ExpectPath.parseCharacters(path), "\(path.debugDescription)")
    }
  }
}
