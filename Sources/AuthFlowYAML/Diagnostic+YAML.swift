public import AuthFlowCore

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
