/// The path of an `expect` entry: dotted segments, with `["…"]` around keys that contain dots
/// (`id_token.claims["https://example.com/roles"]`) and `[N]` for list items.
public enum ExpectPath {
  /// Why a path could not be read, and where in it.
  public struct Problem: Error, Sendable, Hashable {
    /// What is wrong, as the end of "invalid path '…': REASON".
    public var reason: String
    /// Where in the path, in characters.
    public var offset: Int
  }

  /// Splits `path` into its segments.
  public static func parse(_ path: String) -> Result<[String], Problem> {
    if let segments = plainSegments(path) { return .success(segments) }
    return parseCharacters(path)
  }

  /// ``parse(_:)`` character by character: every path, and where a wrong one goes wrong.
  static func parseCharacters(_ path: String) -> Result<[String], Problem> {
    let characters = Array(path)
    var segments: [String] = []
    var index = 0
    var expectSegment = true
    while index < characters.count {
      let character = characters[index]
      if character == "[" {
        guard let (segment, end) = bracket(characters, from: index) else {
          return .failure(Problem(reason: "'[' is not closed by ']'", offset: index))
        }
        segments.append(segment)
        index = end
        expectSegment = false
        if index < characters.count, characters[index] == "." {
          index += 1
          expectSegment = true
          if index == characters.count { return .failure(Problem(reason: "it ends with '.'", offset: index - 1)) }
        }
        continue
      }
      guard expectSegment else { return .failure(Problem(reason: "expected '.' or '['", offset: index)) }
      var segment = ""
      while index < characters.count, characters[index] != ".", characters[index] != "[" {
        if characters[index] == "]" { return .failure(Problem(reason: "unexpected ']'", offset: index)) }
        segment.append(characters[index])
        index += 1
      }
      if segment.isEmpty { return .failure(Problem(reason: "it has an empty segment", offset: index)) }
      segments.append(segment)
      expectSegment = false
      if index < characters.count, characters[index] == "." {
        index += 1
        expectSegment = true
        if index == characters.count { return .failure(Problem(reason: "it ends with '.'", offset: index - 1)) }
      }
    }
    if segments.isEmpty { return .failure(Problem(reason: "it is empty", offset: 0)) }
    return .success(segments)
  }

  /// The segments of the usual path — ASCII names joined by single dots, no brackets — split as
  /// bytes; nil for anything else (which the loop over characters reads, or finds wrong).
  private static func plainSegments(_ path: String) -> [String]? {
    let bytes = path.utf8
    guard let first = bytes.first, let last = bytes.last, first != UInt8(ascii: "."), last != UInt8(ascii: ".")
    else { return nil }
    var previous: UInt8 = 0
    for byte in bytes {
      if byte >= 0x80 || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") { return nil }
      if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return nil }
      previous = byte
    }
    return bytes.split(separator: UInt8(ascii: ".")).map { String(decoding: $0, as: UTF8.self) }
  }

  /// `[0]`, `["a.b"]` or `['a.b']` starting at `start`; the segment and the index after `]`.
  private static func bracket(_ characters: [Character], from start: Int) -> (String, Int)? {
    var index = start + 1
    guard index < characters.count else { return nil }
    if characters[index] == "\"" || characters[index] == "'" {
      let quote = characters[index]
      index += 1
      var segment = ""
      while index < characters.count, characters[index] != quote {
        segment.append(characters[index])
        index += 1
      }
      guard index + 1 < characters.count, characters[index + 1] == "]" else { return nil }
      return (segment, index + 2)
    }
    var segment = ""
    while index < characters.count, characters[index] != "]" {
      segment.append(characters[index])
      index += 1
    }
    guard index < characters.count, !segment.isEmpty else { return nil }
    return (segment, index + 1)
  }
}
