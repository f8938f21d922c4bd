import Foundation
import Testing

@testable import AuthFlowScenario

/// Whether a string holds an expression is decided as Foundation's `contains("${{")` decided it
/// (the parser asked Foundation before): the byte scan that replaces it for ASCII text must agree,
/// and text whose braces carry combining marks still goes to Foundation.
@Suite struct TemplateOpeningTests {
  @Test func agreesWithFoundationsContains() {
    let pieces = ["$", "{", "}", "{{", "${{", " ", "x", "é", "e\u{301}", "\u{301}", "\u{FEFF}", "$$", "日"]
    var texts: [String] = [""]
    var frontier: [String] = [""]
    for _ in 0..<4 {
      frontier = frontier.flatMap { prefix in pieces.map { prefix + $0 } }
      texts += frontier
    }
    texts += [
      "${{ vars.x }}", "a ${{ x }} b", "${{\u{301} x }}", "${\u{301}{ x }}", "$\u{301}{{ x }}", "e\u{301}${{x}}",
    ]
    for text in texts {
      #expect(text.containsTemplateOpening == text.contains("${{"), "\(text.unicodeScalars.map(\.value))")
    }
  }

  @Test func aCombiningMarkOnTheBraceIsNotAnOpening() {
    #expect(!"${{\u{301} x }}".containsTemplateOpening)
    #expect("é ${{ x }}".containsTemplateOpening)
  }
}
