/// How a one-time code and a link are cut out of a message's text: by a pattern (its first group,
/// or its whole match), else by the built-in rules, which read Auth0's default templates (a run of
/// 4 to 8 digits standing alone; the first `http(s)://` URL). Shared by `outbox` and `authflow
/// inbox`'s API, which extracts before it answers so that what it found is a secret from the
/// first byte a trace prints.
public enum MessageExtraction {
  /// The code in `text`.
  public static func code(in text: String, pattern: RegexPattern? = nil) -> String? {
    if let pattern { return matched(pattern, in: text) }
    return firstCode(in: text)
  }

  /// The link in `text`.
  public static func link(in text: String, pattern: RegexPattern? = nil) -> String? {
    if let pattern { return matched(pattern, in: text) }
    return firstLink(in: text)
  }

  /// The pattern's first group where it has one, else its whole match.
  static func matched(_ pattern: RegexPattern, in text: String) -> String? {
    guard let match = pattern.firstMatch(in: text) else { return nil }
    return pattern.groupCount > 0 ? match.group(1) : match.text
  }

  /// The first run of 4 to 8 digits standing alone.
  static func firstCode(in text: String) -> String? {
    var run = ""
    for character in text + " " {
      if character.isASCII, character.isNumber {
        run.append(character)
      } else {
        if (4...8).contains(run.count) { return run }
        run = ""
      }
    }
    return nil
  }

  /// The first `http(s)://` URL, up to whitespace, a quote, `<` or `)`.
  static func firstLink(in text: String) -> String? {
    guard let start = text.range(of: "https://") ?? text.range(of: "http://") else { return nil }
    let tail = text[start.lowerBound...]
    let end =
      tail.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ")" } ?? tail.endIndex
    return String(tail[..<end])
  }
}
