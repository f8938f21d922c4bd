import AuthFlowCore
internal import CLibYAML

/// Reading libyaml's C strings and marks.
enum YAMLEventText {
  /// A NUL-terminated anchor or tag, as Yams read them (invalid UTF-8 repaired).
  static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  /// A scalar's value: `length` bytes, which may hold NUL characters (libyaml's `\0` escape).
  /// A leading byte order mark (`"\uFEFF…"`) is dropped, as Foundation's `String(bytes:encoding:)`
  /// — which Yams read values with — drops it.
  static func scalar(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
    var bytes = UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : length)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      bytes = UnsafeBufferPointer(rebasing: bytes[3...])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// libyaml's zero-based mark as a one-based `file:line:col` (columns count Unicode scalars).
  static func location(_ mark: yaml_mark_t, file: String) -> SourceLocation {
    SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
  }
}
