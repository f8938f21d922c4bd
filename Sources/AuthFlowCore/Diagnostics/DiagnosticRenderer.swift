/// Renders diagnostics as `path:line:col: error: message`, a caret snippet of the source line,
/// the notes (each located) and the fix hint.
///
/// ```
/// scenarios/login.yaml:12:5: error: unknown key 'expct' in a step
///    12 |     expct:
///       |     ^~~~~
///       = hint: did you mean 'expect'?
/// ```
public struct DiagnosticRenderer: Sendable {
  /// Returns the text of a file, for snippets; nil when it cannot be read.
  public var source: @Sendable (String) -> String?
  public var colors: Bool
  /// When false (the default), literal values of secret keys (`password: hunter2`) in snippets are
  /// masked, so a diagnostic never prints a password written into a scenario or profile.
  public var revealSecrets: Bool

  public init(colors: Bool = false, revealSecrets: Bool = false, source: @escaping @Sendable (String) -> String?) {
    self.colors = colors
    self.revealSecrets = revealSecrets
    self.source = source
  }

  public func render(_ diagnostic: Diagnostic) -> String {
    var files = SourceLines()
    return render(diagnostic, files: &files)
  }

  /// Every diagnostic, each file read and split into lines once however many point into it (a
  /// scenario with thousands of errors renders in linear time).
  public func render(_ diagnostics: [Diagnostic]) -> String {
    var files = SourceLines()
    return diagnostics.map { render($0, files: &files) }.joined(separator: "\n")
  }

  private func render(_ diagnostic: Diagnostic, files: inout SourceLines) -> String {
    var lines: [String] = [paint(diagnostic.description, severity: diagnostic.severity)]
    if let location = diagnostic.location,
      let snippet = snippet(at: location, length: diagnostic.length, files: &files)
    {
      lines.append(contentsOf: snippet)
    }
    if let hint = diagnostic.hint {
      lines.append("      = hint: \(hint)")
    }
    for note in diagnostic.notes {
      let prefix = note.location.map { "\($0): " } ?? ""
      lines.append("\(prefix)note: \(note.message)")
      if let location = note.location, let snippet = snippet(at: location, length: 1, files: &files) {
        lines.append(contentsOf: snippet)
      }
    }
    return lines.joined(separator: "\n")
  }

  private func snippet(at location: SourceLocation, length: Int, files: inout SourceLines) -> [String]? {
    guard let line = files.line(location.line, of: location.file, source: source) else { return nil }
    let gutter = String(location.line)
    let pad = String(repeating: " ", count: max(0, 5 - gutter.count))
    let blank = String(repeating: " ", count: max(5, gutter.count))
    let indent = String(repeating: " ", count: max(0, location.column - 1))
    let marker = "^" + String(repeating: "~", count: max(0, length - 1))
    return [
      "\(pad)\(gutter) | \(revealSecrets ? line.replacingTabs() : SnippetRedaction.mask(line.replacingTabs()))",
      "\(blank) | \(indent)\(paint(marker, severity: .note))",
    ]
  }

  private func paint(_ text: String, severity: Diagnostic.Severity) -> String {
    guard colors else { return text }
    switch severity {
    case .error: return "\u{1B}[1;31m\(text)\u{1B}[0m"
    case .warning: return "\u{1B}[1;33m\(text)\u{1B}[0m"
    case .note: return "\u{1B}[1;32m\(text)\u{1B}[0m"
    }
  }
}

/// The lines of each file a rendering has needed, split once.
private struct SourceLines {
  private var lines: [String: [Substring]?] = [:]

  mutating func line(_ number: Int, of file: String, source: (String) -> String?) -> Substring? {
    if lines[file] == nil {
      lines[file] = .some(source(file).map { $0.split(separator: "\n", omittingEmptySubsequences: false) })
    }
    guard let fileLines = lines[file] ?? nil, number >= 1, number <= fileLines.count else { return nil }
    return fileLines[number - 1]
  }
}

extension Substring {
  fileprivate func replacingTabs() -> String {
    String(self).split(separator: "\t", omittingEmptySubsequences: false).joined(separator: " ")
  }
}
