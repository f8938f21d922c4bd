/// Masks the literal values of secret keys in one line of YAML, keeping every column where it was
/// (each masked character becomes `*`), so a caret under the line still points at the same place.
///
/// `password: hunter2` → `password: *******`; `{ client_secret: abc, id: x }` →
/// `{ client_secret: ***, id: x }`. Expressions (`${{ env.PASSWORD }}`) are not secrets themselves
/// and stay readable.
public enum SnippetRedaction {
  /// Keys whose values are secrets wherever they appear.
  public static var secretKeys: Set<String> { SecretFieldNames.all }

  public static func mask(_ line: String) -> String {
    var characters = Array(line)
    var index = 0
    while index < characters.count {
      guard characters[index].isLetter || characters[index] == "_",
        index == 0
          || !(characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == "_")
      else {
        index += 1
        continue
      }
      var end = index
      while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" {
        end += 1
      }
      let key = String(characters[index..<end])
      var quoteEnd = end
      if quoteEnd < characters.count, characters[quoteEnd] == "\"" || characters[quoteEnd] == "'" { quoteEnd += 1 }
      guard secretKeys.contains(key), quoteEnd < characters.count, characters[quoteEnd] == ":",
        quoteEnd + 1 == characters.count || characters[quoteEnd + 1] == " "
      else {
        index = end
        continue
      }
      var start = quoteEnd + 1
      while start < characters.count, characters[start] == " " { start += 1 }
      let valueEnd = valueEnd(in: characters, from: start)
      let value = String(characters[start..<valueEnd])
      let isScalar = !value.isEmpty && !["{", "[", "|", ">", "&", "*", "!"].contains(value.first)
      if isScalar, !value.contains("${{") {
        for position in start..<valueEnd where characters[position] != "\"" && characters[position] != "'" {
          characters[position] = "*"
        }
      }
      index = max(valueEnd, end)
    }
    return String(characters)
  }

  /// Where a scalar that starts at `start` ends: at `,` or `}` in a flow mapping, at ` #`, or at the end of the line.
  private static func valueEnd(in characters: [Character], from start: Int) -> Int {
    guard start < characters.count else { return start }
    if characters[start] == "\"" || characters[start] == "'" {
      let quote = characters[start]
      var position = start + 1
      while position < characters.count, characters[position] != quote { position += 1 }
      return min(position + 1, characters.count)
    }
    var position = start
    while position < characters.count {
      let character = characters[position]
      if character == "," || character == "}" { break }
      if character == "#", position > start, characters[position - 1] == " " { break }
      position += 1
    }
    while position > start, characters[position - 1] == " " { position -= 1 }
    return position
  }
}
