import AuthFlowCore
internal import CLibYAML

// The messages of YAML inputs past a resource limit (see `InputLimits` and
// docs/scenario-language.md, "Limits"), for every loader that reads YAML.
extension Diagnostic {
  static func fileTooLarge(_ path: String, bytes: Int) -> Diagnostic {
    .error(
      "the file is \(bytes) bytes, more than the limit of \(InputLimits.fileBytes) bytes",
      at: SourceLocation(file: path, line: 1, column: 1), hint: "split it into smaller files")
  }

  static func yamlTooManyNodes(at location: SourceLocation) -> Diagnostic {
    .error(
      "the document expands to more than \(InputLimits.yamlNodes) YAML nodes (aliases count as the nodes they repeat)",
      at: location, hint: "an alias repeats its anchor's whole node; nested aliases multiply")
  }

  static func yamlTooDeep(at location: SourceLocation) -> Diagnostic {
    .error(
      "lists and mappings are nested more than \(InputLimits.yamlDepth) deep", at: location,
      hint: "flatten the structure")
  }
}

// The messages of YAML that cannot be read: libyaml's own errors (its words, at its marks) and
// the composer's (an empty stream, a second document, an undefined alias, a repeated key).
extension Diagnostic {
  static func yamlEmptyFile(_ file: String) -> Diagnostic {
    .error(
      "the file is empty", at: SourceLocation(file: file, line: 1, column: 1),
      hint: "a scenario needs at least 'scenario:' and 'steps:'")
  }

  static func yamlSecondDocument(at location: SourceLocation, file: String) -> Diagnostic {
    .error(
      "invalid YAML: but found another document", at: location,
      notes: [Note("expected a single document in the stream", at: SourceLocation(file: file, line: 1, column: 1))])
  }

  static func yamlUndefinedAlias(at location: SourceLocation) -> Diagnostic {
    .error("invalid YAML: found undefined alias", at: location)
  }

  static func yamlDuplicateKeys(_ keys: [String], at location: SourceLocation) -> Diagnostic {
    .error(
      "duplicate key \(keys.map { "'\($0)'" }.joined(separator: ", ")) in a mapping", at: location,
      hint: "each key may appear once in a mapping; remove or rename the repeated one")
  }

  static func yamlOutOfMemory(_ file: String) -> Diagnostic {
    .error("invalid YAML: Memory error", at: SourceLocation(file: file, line: 1, column: 1))
  }

  /// The error libyaml's parser stopped with.
  static func yamlSyntaxError(
    _ parser: yaml_parser_t, file: String, input: UnsafeBufferPointer<UInt8>? = nil
  ) -> Diagnostic {
    func located(_ mark: yaml_mark_t) -> SourceLocation { YAMLEventText.location(mark, file: file) }
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
    switch parser.error {
    case YAML_MEMORY_ERROR:
      return yamlOutOfMemory(file)
    case YAML_READER_ERROR:
      return .error(
        "could not read the file as UTF-8 text: \(problem)", at: SourceLocation(file: file, line: 1, column: 1))
    default:
      let notes = parser.context.map { [Note(String(cString: $0), at: located(parser.context_mark))] } ?? []
      // The byte libyaml stopped at, when it is in the input: a tab is the usual culprit.
      let mark = parser.problem_mark
      let byte = input.flatMap { firstByte(in: $0, line: Int(mark.line), column: Int(mark.column)) }
      return .error(
        "invalid YAML: \(problem)", at: located(parser.problem_mark), notes: notes,
        hint: yamlHint(for: problem, at: byte))
    }
  }

  /// The first byte of the character at a 0-based line and column (columns count characters, as
  /// libyaml's marks do; its `index` counts characters too, not bytes).
  static func firstByte(in input: UnsafeBufferPointer<UInt8>, line: Int, column: Int) -> UInt8? {
    var position = 0
    var linesLeft = line
    while linesLeft > 0 {
      guard let newline = input[position...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      position = newline + 1
      linesLeft -= 1
    }
    var charactersLeft = column
    while position < input.count {
      let byte = input[position]
      if byte != UInt8(ascii: "\n"), byte & 0xC0 == 0x80 {
        position += 1
        continue
      }
      if charactersLeft == 0 { return byte }
      if byte == UInt8(ascii: "\n") { return nil }
      charactersLeft -= 1
      position += 1
    }
    return nil
  }

  private static func yamlHint(for problem: String, at byte: UInt8?) -> String? {
    if problem.contains("tab") || byte == UInt8(ascii: "\t") { return "YAML indentation must use spaces, not tabs" }
    if problem.contains("mapping values are not allowed") {
      return "a value containing ': ' must be quoted, or a key is indented too far"
    }
    if problem.contains("did not find expected key") {
      return "check the indentation of this line against the one above"
    }
    if problem.contains("found character that cannot start any token") {
      return "quote values that start with '@', '`' or '%'; write expressions as \"${{ … }}\""
    }
    return nil
  }
}
