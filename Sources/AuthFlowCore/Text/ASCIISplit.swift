extension StringProtocol {
  /// The text split at every `separator`, an ASCII byte, empty parts kept: `a..b` is `a`, ``, `b`.
  ///
  /// Split over the UTF-8 bytes instead of the characters: an ASCII byte never falls inside a
  /// character, so each part is whole characters, and the split needs no grapheme breaking (a
  /// compact JWS or a URL is a kilobyte of text, split several times per request).
  public func splitting(atASCII separator: UInt8) -> [SubSequence] {
    precondition(separator < 0x80, "the separator must be an ASCII byte")
    var parts: [SubSequence] = []
    var start = startIndex
    var index = utf8.startIndex
    while let found = utf8[index...].firstIndex(of: separator) {
      parts.append(self[start..<found])
      index = utf8.index(after: found)
      start = index
    }
    parts.append(self[start...])
    return parts
  }
}
