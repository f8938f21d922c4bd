extension String {
  /// The text with control characters other than newline and tab shown as `\u{1B}`, so that
  /// report content (an error page, a response body) can't move the cursor or change colors on a
  /// terminal or in a CI log that renders ANSI sequences (the console and GitHub reporters).
  var terminalSafe: String {
    guard unicodeScalars.contains(where: \.isUnsafeOnTerminal) else { return self }
    var output = ""
    for scalar in unicodeScalars {
      if scalar.isUnsafeOnTerminal {
        output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}

extension Unicode.Scalar {
  fileprivate var isUnsafeOnTerminal: Bool {
    (value < 0x20 && self != "\n" && self != "\t") || (0x7F...0x9F).contains(value)
  }
}
