import Foundation

/// How a one-time code and a link are cut out of a message's text: by a pattern (its first group,
/// or its whole match), else by the built-in rules (``firstCode(in:)``: Auth0's default templates,
/// and the common shapes of others; the first `http(s)://` URL). Shared by `outbox` and `authflow
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

  /// The code a message announces, by the first rule that finds one:
  /// 1. digits (4 to 10) within 40 characters after "code", "OTP", "PIN" or "passcode" ("Your
  ///    verification code is: 123456");
  /// 2. a line that is only a code — 4 to 8 digits, or letters and digits in one or two groups
  ///    (`QWQG-FWXS`, `K7GZQ2`) — after a line that mentions a code ("…code is listed below");
  /// 3. the first run of 6 digits standing alone, then of 4 to 8 digits — not part of an address,
  ///    a host's port, a date or a version (next to `.`, `:`, `/`, `-` or `@`).
  static func firstCode(in text: String) -> String? {
    let characters = Array(text)
    let runs = digitRuns(characters)
    let lowered = Array(text.lowercased())
    for run in runs where (4...10).contains(run.count) {
      let before = String(lowered[max(0, run.lowerBound - 40)..<run.lowerBound])
      if ["code", "otp", "pin", "passcode"].contains(where: before.contains) { return String(characters[run]) }
    }
    if let alone = codeOnItsOwnLine(text) { return alone }
    let standalone = runs.filter { !touchesAddressPunctuation($0, in: characters) }
    if let six = standalone.first(where: { $0.count == 6 }) { return String(characters[six]) }
    return standalone.first { (4...8).contains($0.count) }.map { String(characters[$0]) }
  }

  /// The runs of ASCII digits not inside a word.
  private static func digitRuns(_ characters: [Character]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var index = 0
    while index < characters.count {
      guard characters[index].isASCII, characters[index].isNumber else {
        index += 1
        continue
      }
      var end = index
      while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
      let startsWord = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
      let endsWord = end == characters.count || !(characters[end].isLetter || characters[end].isNumber)
      if startsWord, endsWord { runs.append(index..<end) }
      index = end
    }
    return runs
  }

  /// Whether the run sits in an address, a host and port, a date or a version.
  private static func touchesAddressPunctuation(_ run: Range<Int>, in characters: [Character]) -> Bool {
    let punctuation: Set<Character> = [".", ":", "/", "-", "@", "_", "="]
    let before = run.lowerBound > 0 ? characters[run.lowerBound - 1] : " "
    let after = run.upperBound < characters.count ? characters[run.upperBound] : " "
    return punctuation.contains(before) || punctuation.contains(after)
  }

  /// A line that is only a code, after a line that mentions one.
  private static func codeOnItsOwnLine(_ text: String) -> String? {
    var mentioned = false
    for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      if mentioned, isCode(line) { return line }
      if line.lowercased().contains("code") { mentioned = true }
    }
    return nil
  }

  /// 4 to 8 digits, or 4 to 12 letters and digits (upper case or digits among them) in one or two
  /// groups joined by `-`.
  private static func isCode(_ line: String) -> Bool {
    let groups = line.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...2).contains(groups.count), groups.allSatisfy({ (2...8).contains($0.count) }) else { return false }
    let letters = line.filter { $0 != "-" }
    guard (4...12).contains(letters.count), letters.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
      return false
    }
    return letters.allSatisfy(\.isNumber) || letters.contains(where: \.isNumber) || letters == letters.uppercased()
  }

  /// The first `http(s)://` URL, up to whitespace, a quote, `<`, `>` or `)`.
  static func firstLink(in text: String) -> String? {
    guard let start = text.range(of: "https://") ?? text.range(of: "http://") else { return nil }
    let tail = text[start.lowerBound...]
    let end =
      tail.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0 == ")" }
      ?? tail.endIndex
    return String(tail[..<end])
  }
}
