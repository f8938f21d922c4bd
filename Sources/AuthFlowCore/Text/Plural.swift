/// Counted nouns and articles for messages, so that a count of one reads "1 scenario" and a noun
/// starting with a vowel reads "an error page".
public enum Plural {
  /// "1 scenario", "3 scenarios"; `plural` when the noun does not just take an "s".
  public static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(number) " + noun(number, singular, plural)
  }

  /// The noun alone: `singular` for one, else `plural` (default: `singular` + "s").
  public static func noun(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
    number == 1 ? singular : plural ?? singular + "s"
  }

  /// `word` after "a" or "an", as the words messages use are pronounced: "an error", "an
  /// unknown", "a login", "a user" (a leading quote or backtick is skipped).
  public static func indefinite(_ word: String) -> String {
    let bare = word.drop { $0 == "`" || $0 == "'" || $0 == "\"" }.lowercased()
    let vowel = bare.first.map { "aeio".contains($0) } == true || bare.hasPrefix("un")
    return (vowel ? "an " : "a ") + word
  }
}
