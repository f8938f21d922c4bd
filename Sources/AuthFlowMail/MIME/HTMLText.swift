/// Plain text from an HTML body, for a message that has no `text/plain` part.
///
/// Tags are dropped, line breaks and block ends become newlines, character references are decoded,
/// `script`, `style`, `head` and comments vanish, and a link keeps its target: `label (URL)`, or
/// just the URL when the label is empty or equal to it. One linear pass over the UTF-8 bytes.
public enum HTMLText {
  /// The text of an HTML body: tags dropped, blocks as lines, entities decoded, each link's URL
  /// kept beside its label.
  public static func text(fromHTML html: String) -> String {
    var scanner = Scanner(bytes: Array(html.utf8))
    scanner.run()
    return tidy(String(decoding: scanner.output, as: UTF8.self))
  }

  private static let blockTags: Set<String> = [
    "p", "div", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr",
    "section", "article", "header", "footer", "nav", "aside", "main", "dl", "dt", "dd", "address", "figure",
    "figcaption", "form", "fieldset", "center", "title", "body", "html",
  ]
  private static let droppedTags: Set<String> = ["script", "style", "head", "template", "noscript"]

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var output: [UInt8] = []
    /// The open link: its decoded target and where its label starts in `output`.
    var link: (href: String, labelStart: Int)?
    /// Set once a `<` was found with no `>` after it: every later `<` is text, so the scan stays linear.
    var noMoreTagEnds = false

    init(bytes: [UInt8]) {
      self.bytes = bytes
      output.reserveCapacity(bytes.count)
    }

    mutating func run() {
      var textStart = 0
      while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "<"), !noMoreTagEnds else {
          index += 1
          continue
        }
        appendText(bytes[textStart..<index])
        markup()
        textStart = index
      }
      appendText(bytes[textStart...])
      closeLink()
    }

    /// Handles the markup at `index` (a `<`), leaving `index` after it.
    private mutating func markup() {
      if startsWith("<!--", at: index) {
        index = find("-->", from: index + 4).map { $0 + 3 } ?? bytes.count
        return
      }
      guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ">")) else {
        noMoreTagEnds = true
        appendText(bytes[index..<(index + 1)])
        index += 1
        return
      }
      let inside = bytes[(index + 1)..<close]
      index = close + 1
      var cursor = inside.startIndex
      let isEnd = cursor < inside.endIndex && inside[cursor] == UInt8(ascii: "/")
      if isEnd { cursor += 1 }
      let nameEnd = inside[cursor...].firstIndex { !(isAlphanumeric($0)) } ?? inside.endIndex
      let name = String(decoding: inside[cursor..<nameEnd], as: UTF8.self).lowercased()
      guard !name.isEmpty else {
        // `<!DOCTYPE>`, `<?xml?>` and stray `<` followed by something odd.
        if inside.first != UInt8(ascii: "!"), inside.first != UInt8(ascii: "?") {
          appendText(bytes[(close - inside.count - 1)...close])
        }
        return
      }
      if !isEnd, HTMLText.droppedTags.contains(name), inside.last != UInt8(ascii: "/") {
        index =
          find("</" + name, from: index, caseInsensitive: true).map { end in
            bytes[end...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? bytes.count
          } ?? bytes.count
        return
      }
      switch name {
      case "br": newline()
      case "a" where !isEnd:
        closeLink()
        let href = attribute("href", in: inside[nameEnd...]).map { HTMLEntities.decode($0).trimmingSpace() }
        if let href, !href.isEmpty { link = (href, output.count) }
      case "a": closeLink()
      case "td", "th": if isEnd { output.append(UInt8(ascii: " ")) }
      case "li" where !isEnd:
        newline()
        output.append(contentsOf: Array("- ".utf8))
      case "li": break  // the next item or the list's end breaks the line
      default:
        if HTMLText.blockTags.contains(name) { newline() }
      }
    }

    private mutating func closeLink() {
      guard let (href, start) = link else { return }
      link = nil
      let label = String(decoding: output[start...], as: UTF8.self).trimmingSpace()
      if label.isEmpty {
        output.removeSubrange(start...)
        output.append(contentsOf: Array(href.utf8))
      } else if label != href {
        output.append(contentsOf: Array(" (\(href))".utf8))
      }
    }

    private mutating func newline() {
      while output.last == UInt8(ascii: " ") { output.removeLast() }
      output.append(MIMEBytes.lf)
    }

    /// Appends text, collapsing whitespace runs to one space and decoding character references.
    private mutating func appendText(_ text: ArraySlice<UInt8>) {
      guard !text.isEmpty else { return }
      var collapsed: [UInt8] = []
      collapsed.reserveCapacity(text.count)
      for byte in text {
        if MIMEBytes.isSpace(byte) {
          if collapsed.last != 32, !(collapsed.isEmpty && (output.last == 32 || output.last == MIMEBytes.lf)) {
            collapsed.append(32)
          }
        } else {
          collapsed.append(byte)
        }
      }
      output.append(contentsOf: HTMLEntities.decode(bytes: collapsed))
    }

    private func attribute(_ wanted: String, in tag: ArraySlice<UInt8>) -> String? {
      var cursor = tag.startIndex
      while cursor < tag.endIndex {
        while cursor < tag.endIndex, MIMEBytes.isSpace(tag[cursor]) || tag[cursor] == UInt8(ascii: "/") {
          cursor += 1
        }
        let nameStart = cursor
        while cursor < tag.endIndex, !MIMEBytes.isSpace(tag[cursor]), tag[cursor] != UInt8(ascii: "="),
          tag[cursor] != UInt8(ascii: "/") || cursor == nameStart
        {
          cursor += 1
        }
        if cursor == nameStart { break }
        let name = String(decoding: tag[nameStart..<cursor], as: UTF8.self).lowercased()
        while cursor < tag.endIndex, MIMEBytes.isSpace(tag[cursor]) { cursor += 1 }
        var value = ""
        if cursor < tag.endIndex, tag[cursor] == UInt8(ascii: "=") {
          cursor += 1
          while cursor < tag.endIndex, MIMEBytes.isSpace(tag[cursor]) { cursor += 1 }
          if cursor < tag.endIndex, tag[cursor] == UInt8(ascii: "\"") || tag[cursor] == UInt8(ascii: "'") {
            let quote = tag[cursor]
            let valueStart = cursor + 1
            let valueEnd = tag[valueStart...].firstIndex(of: quote) ?? tag.endIndex
            value = String(decoding: tag[valueStart..<valueEnd], as: UTF8.self)
            cursor = min(valueEnd + 1, tag.endIndex)
          } else {
            let valueStart = cursor
            while cursor < tag.endIndex, !MIMEBytes.isSpace(tag[cursor]) { cursor += 1 }
            value = String(decoding: tag[valueStart..<cursor], as: UTF8.self)
          }
        }
        if name == wanted { return value }
      }
      return nil
    }

    private func isAlphanumeric(_ byte: UInt8) -> Bool {
      (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    private func startsWith(_ prefix: String, at position: Int) -> Bool {
      let needle = Array(prefix.utf8)
      guard position + needle.count <= bytes.count else { return false }
      return bytes[position..<(position + needle.count)].elementsEqual(needle)
    }

    /// The index of the first `needle` at or after `start`; one forward scan.
    private func find(_ needle: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
      let needle = Array(needle.utf8).map { caseInsensitive ? lower($0) : $0 }
      guard let first = needle.first, start + needle.count <= bytes.count else { return nil }
      var position = start
      while position + needle.count <= bytes.count {
        let byte = caseInsensitive ? lower(bytes[position]) : bytes[position]
        if byte == first {
          var offset = 1
          while offset < needle.count,
            (caseInsensitive ? lower(bytes[position + offset]) : bytes[position + offset]) == needle[offset]
          {
            offset += 1
          }
          if offset == needle.count { return position }
        }
        position += 1
      }
      return nil
    }

    private func lower(_ byte: UInt8) -> UInt8 {
      byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
  }

  /// Trims every line, and collapses runs of blank lines into one.
  private static func tidy(_ text: String) -> String {
    var lines: [String] = []
    var blank = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = String(line).trimmingSpace()
      if trimmed.isEmpty {
        blank += 1
        if blank == 1, !lines.isEmpty { lines.append("") }
      } else {
        blank = 0
        lines.append(trimmed)
      }
    }
    while lines.last == "" { lines.removeLast() }
    return lines.joined(separator: "\n")
  }
}
