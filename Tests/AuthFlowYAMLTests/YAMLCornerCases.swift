import Testing

/// Inputs at the edges of what the composer and the limits decide: anchors and aliases, tags,
/// keys that are equal only as Yams compares them, several documents, and which problem wins when
/// a file has more than one.
enum YAMLCornerCases {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var testDescription: String { name }
  }

  static let all: [Case] = [
    Case(name: "empty", text: ""),
    Case(name: "comments only", text: "# nothing\n\n# here\n"),
    Case(name: "document markers only", text: "---\n...\n"),
    Case(name: "explicit empty document", text: "--- \n"),
    Case(name: "bare scalar", text: "hello\n"),
    Case(name: "two documents", text: "a: 1\n---\nb: 2\n"),
    Case(name: "two documents, the second broken", text: "a: 1\n---\nb: [\n"),
    Case(name: "directive", text: "%YAML 1.1\n---\na: 1\n"),
    Case(name: "anchor and alias", text: "a: &x {b: 1}\nc: *x\nd: *x\n"),
    Case(name: "scalar anchor as key", text: "a: &k key\n*k : 2\n"),
    Case(name: "alias key repeating a key", text: "&k a: 1\n*k : 2\n"),
    Case(name: "undefined alias", text: "a: *nope\n"),
    Case(name: "self-referencing anchor", text: "a: &x [1, *x]\n"),
    Case(name: "redefined anchor", text: "a: &x 1\nb: &x [*x]\nc: *x\n"),
    Case(name: "duplicate keys", text: "b: 1\na: 2\nb: 3\na: 4\n"),
    Case(name: "duplicate quoted and plain", text: "a: 1\n'a': 2\n"),
    Case(name: "duplicate with !!str tag", text: "a: 1\n!!str a: 2\n"),
    Case(name: "duplicate with ! tag", text: "a: 1\n! a: 2\n"),
    Case(name: "not duplicate: !!int", text: "1: a\n!!int 1: b\n"),
    Case(name: "duplicate !!int", text: "!!int 1: a\n!!int 1: b\n"),
    Case(name: "canonically equal keys", text: "é: 1\ne\u{301}: 2\n"),
    Case(name: "duplicate complex keys", text: "? [a, b]\n: 1\n? [a, b]\n: 2\n"),
    Case(name: "complex keys differing in tag", text: "? [a]\n: 1\n? !!seq [a]\n: 2\n? !foo [a]\n: 3\n"),
    Case(name: "duplicate mapping keys", text: "? {x: 1, y: 2}\n: 1\n? {x: 1, y: 2}\n: 2\n"),
    Case(name: "mapping keys differing in value", text: "? {x: 1}\n: 1\n? {x: 2}\n: 2\n"),
    Case(name: "duplicate !!value mapping keys", text: "? {!!value v: named}\n: 1\n? {!!value v: named}\n: 2\n"),
    Case(name: "many duplicate keys", text: (0..<40).map { "k\($0 % 25): \($0)\n" }.joined()),
    Case(name: "many keys without duplicates", text: (0..<40).map { "k\($0): \($0)\n" }.joined()),
    Case(name: "duplicate inside and outside", text: "a:\n  x: 1\n  x: 2\na: 3\n"),
    Case(name: "duplicate then syntax error", text: "a: 1\na: 2\nb: [\n"),
    Case(name: "syntax error in the same mapping after a duplicate", text: "a: 1\na: 2\nb: c: d\n"),
    Case(name: "duplicate in flow mapping", text: "{a: 1, b: 2, a: 3}\n"),
    Case(name: "duplicate empty keys", text: "? \n: 1\n? \n: 2\n"),
    Case(name: "merge key kept", text: "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n"),
    Case(name: "tab indentation", text: "a:\n\tb: 1\n"),
    Case(name: "tab before a sequence item", text: "steps:\n\t- set: { x: 1 }\n"),
    // Found by mutationsOfTheRepositoryLoadAsBefore: a tab on a line after a CRLF (the oracle
    // counted "\r\n" as no line break, and read the hint's character off the wrong line).
    Case(name: "a tab alone on the last line", text: "steps:\n  - set: { x: 1 }\n\t"),
    Case(name: "a tab on a line after a CRLF", text: "a: 1\r\nb: 2\n\t"),
    Case(name: "a tab after a CRLF, mid-line", text: "a: 1\r\nb: x\n c: @y\n\t\n"),
    Case(name: "a CRLF, then a tab at the end of a nested block", text: "a:\r\n  b:\n    c: { d: false }\n\t"),
    Case(
      name: "a CRLF key, then a tab at the end", text: "s:\n  - id: x\n    44:\r\n    e:\n      f: { g: false }\n\t"),
    Case(name: "value with colon", text: "a: b: c\n"),
    Case(name: "bad indentation", text: "a:\n  b: 1\n c: 2\n"),
    Case(name: "at sign", text: "a: @b\n"),
    Case(name: "control character", text: "a: \u{7}\n"),
    Case(name: "unclosed quote", text: "a: \"b\n"),
    Case(name: "byte order mark", text: "\u{FEFF}a: 1\n"),
    Case(name: "escaped byte order mark", text: "a: \"\\uFEFFb\"\n"),
    Case(name: "NUL escape", text: "a: \"x\\0y\"\n"),
    Case(name: "invalid escape", text: "a: \"\\q\"\n"),
    Case(name: "surrogate escape", text: "a: \"\\ud800\"\n"),
    Case(name: "undefined tag handle", text: "a: !x!y b\n"),
    Case(name: "block scalars", text: "a: |\n  one\n  two\nb: >-\n  folded\n  text\n"),
    Case(
      name: "typed scalars",
      text: "[~, null, yes, Off, 0x1F, 0o17, 1_000, 1:30, .5, -.inf, .nan, 'yes', \"12\", !!str 5]\n"),
    Case(name: "wide characters before a scalar", text: "日本: 語\n語: [é, \"ü\"]\n"),
    Case(name: "depth 64", text: String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "\n"),
    Case(name: "depth 65", text: String(repeating: "[", count: 65) + String(repeating: "]", count: 65) + "\n"),
    Case(name: "depth 65 in a second document", text: "a: 1\n---\n" + String(repeating: "[", count: 65) + "\n"),
    Case(
      name: "depth 65 after a duplicate key", text: "x: {a: 1, a: 2}\nb: " + String(repeating: "[", count: 65) + "\n"),
    Case(name: "depth 65 after an undefined alias", text: "a: *u\nb: " + String(repeating: "[", count: 65) + "\n"),
    Case(name: "syntax error before depth 65", text: "a: [\nb: c: d\n" + String(repeating: "[", count: 65) + "\n"),
    Case(name: "alias bomb", text: aliasBomb(levels: 9)),
    Case(name: "alias bomb after a duplicate key", text: "x:\n  k: 1\n  k: 2\n" + aliasBomb(levels: 9)),
    Case(name: "alias bomb in a second document", text: "a: 1\n---\n" + aliasBomb(levels: 9)),
    Case(name: "aliases just within the limit", text: aliasBomb(levels: 5)),
    Case(name: "alias to a redefined anchor counts the latest", text: "a: &x [1, 2, 3]\nb: &x 1\nc: [*x, *x]\n"),
  ]

  /// Nine anchors each listing the previous one ten times: 10⁹ nodes once expanded.
  static func aliasBomb(levels: Int) -> String {
    var text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1..<levels {
      text += "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    return text
  }
}
