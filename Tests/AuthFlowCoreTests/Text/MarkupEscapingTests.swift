import AuthFlowCore
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One escaping for the HTML report, the JUnit report and the mock's pages: each context escapes
/// what it must, and what XML 1.0 cannot carry becomes visible text.
@Suite struct MarkupEscapingTests {
  @Test func htmlEscapesMarkupAndBothQuotes() {
    #expect(MarkupEscaping.html(#"a<b>&"c"'d'"#) == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;")
    #expect(MarkupEscaping.html("plain é 🎉") == "plain é 🎉")
    #expect(MarkupEscaping.html("&amp;") == "&amp;amp;", "text already escaped is escaped again")
  }

  @Test func htmlKeepsTabAndNewlineAndShowsOtherControls() {
    #expect(MarkupEscaping.html("l1\nl2\tx") == "l1\nl2\tx")
    #expect(MarkupEscaping.html("bell\u{07}esc\u{1B}\r") == #"bell\u{7}esc\u{1B}\u{D}"#)
    #expect(MarkupEscaping.html("del\u{7F}c1\u{85}\u{9F}") == #"del\u{7F}c1\u{85}\u{9F}"#)
  }

  @Test func xmlTextEscapesMarkupButNotQuotes() {
    #expect(MarkupEscaping.xml(#"a<b>&"c"'d'"#) == #"a&lt;b&gt;&amp;"c"'d'"#)
    #expect(MarkupEscaping.xml("l1\nl2\tx\r") == "l1\nl2\tx&#13;")
  }

  @Test func xmlAttributesEscapeQuotesAndTheWhitespaceNormalizationWouldFold() {
    #expect(MarkupEscaping.xml(#"a<b>&"c"'d'"#, attribute: true) == "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;")
    #expect(MarkupEscaping.xml("l1\nl2\tx\r", attribute: true) == "l1&#10;l2&#9;x&#13;")
  }

  @Test func charactersXML10CannotCarryBecomeVisible() {
    #expect(
      MarkupEscaping.xml("bell\u{07}esc\u{1B}nul\u{0}\u{FFFE}\u{FFFF}")
        == #"bell\u{7}esc\u{1B}nul\u{0}\u{FFFE}\u{FFFF}"#)
    // C1 controls are allowed (if discouraged) in XML 1.0: kept.
    #expect(MarkupEscaping.xml("c1\u{85}") == "c1\u{85}")
  }

  @Test func attributePairsKeepTheirOrder() {
    #expect(MarkupEscaping.htmlAttributes([("b", "1"), ("a", "x\"y'")]) == #" b="1" a="x&quot;y&#39;""#)
    #expect(MarkupEscaping.xmlAttributes([("b", "1"), ("a", "x\ny'")]) == #" b="1" a="x&#10;y&apos;""#)
  }

  /// Hostile text in an attribute and in an element, escaped, is a well-formed XML document whose
  /// parser reads the text back (the characters XML cannot carry as their visible form).
  @Test func hostileTextMakesWellFormedXMLThatReadsBack() throws {
    let hostile = "]]><!-- \u{1}\u{8} é 🎉 \"q\" 'a' &amp; <x>\n\tend\r"
    let document =
      "<r" + MarkupEscaping.xmlAttributes([("v", hostile)]) + ">" + MarkupEscaping.xml(hostile) + "</r>"
    let reader = AttributeAndText()
    let parser = XMLParser(data: Data(document.utf8))
    parser.delegate = reader
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let readable = hostile.replacingOccurrences(of: "\u{1}", with: #"\u{1}"#)
      .replacingOccurrences(of: "\u{8}", with: #"\u{8}"#)
    #expect(reader.attribute == readable)
    #expect(reader.text == readable)
  }
}

/// Collects the `v` attribute and the text of a one-element document.
private final class AttributeAndText: NSObject, XMLParserDelegate {
  var attribute: String?
  var text = ""

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    attribute = attributes["v"]
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
