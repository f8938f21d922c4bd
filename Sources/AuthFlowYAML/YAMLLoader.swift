public import AuthFlowCore
internal import CLibYAML

/// Reads YAML text into a located tree, turning libyaml's errors into located diagnostics.
///
/// One pass over libyaml's events does everything: each event is counted against the resource
/// limits (``YAMLLimits``) and added to the tree (`YAMLComposer`). The results are those of the
/// two passes this replaced — a limits scan of the whole stream, then Yams' `compose` — so a limit
/// crossed anywhere before libyaml's first syntax error wins over every other problem, and a
/// problem the composer finds (a duplicate key, an undefined alias, a second document) is only
/// reported once the rest of the stream is known to stay within the limits.
public enum YAMLLoader {
  /// Composes the first document of `text`. On a syntax error the tree is nil and the diagnostic
  /// says where and what.
  public static func load(_ text: String, file: String) -> (YAMLNode?, [Diagnostic]) {
    let bytes = text.utf8.count
    if bytes > InputLimits.fileBytes { return (nil, [.fileTooLarge(file, bytes: bytes)]) }
    var text = text
    return text.withUTF8 { buffer in load(buffer, file: file) }
  }

  private static func load(_ buffer: UnsafeBufferPointer<UInt8>, file: String) -> (YAMLNode?, [Diagnostic]) {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return (nil, [.yamlOutOfMemory(file)]) }
    defer { yaml_parser_delete(&parser) }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)

    var limits = YAMLLimitCounter(file: file)
    var composer = YAMLComposer(file: file)
    var event = yaml_event_t()
    while true {
      guard yaml_parser_parse(&parser, &event) == 1 else {
        // The composer stops at the end of the stream, so it can only have stopped here on a
        // problem of its own, found before libyaml's.
        if let outcome = composer.outcome { return outcome.result }
        return (nil, [.yamlSyntaxError(parser, file: file, input: buffer)])
      }
      defer { yaml_event_delete(&event) }
      if let limit = limits.count(event) { return (nil, [limit]) }
      if composer.outcome == nil { composer.add(event) }
      // The composer has its outcome at the end of the stream, the limits their last event.
      if event.type == YAML_STREAM_END_EVENT { return composer.outcome?.result ?? (nil, []) }
    }
  }
}
