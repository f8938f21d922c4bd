import AuthFlowScenario

/// A part of a hand-written page that `authflow docs` writes, between two marker comments
/// (`<!-- generated: NAME (authflow docs) -->` … `<!-- end generated: NAME -->`), so the page's
/// prose stays hand-written and the list in it cannot drift from the code.
public struct GeneratedSection: Sendable {
  /// The page, relative to `docs/`.
  public var page: String
  /// What the markers call it.
  public var name: String
  /// The section's text, without the markers.
  public var text: @Sendable () -> String

  /// Every generated section of a hand-written page.
  public static let all = [
    GeneratedSection(page: "scenario-language.md", name: "matchers") { MatcherRegistry.documentationTable }
  ]

  public var begin: String { "<!-- generated: \(name) (authflow docs) -->" }
  public var end: String { "<!-- end generated: \(name) -->" }

  /// `page` with the text between the markers replaced by the current text; unchanged when the
  /// page has no markers.
  public func updating(_ page: String) -> String {
    guard let start = page.range(of: begin), let stop = page.range(of: end, range: start.upperBound..<page.endIndex)
    else { return page }
    return page[..<start.upperBound] + "\n" + text() + "\n" + page[stop.lowerBound...]
  }
}
