public import AuthFlowCore
internal import CYaml
import Foundation

/// The resource limits of every YAML input (scenario files, `authflow.yaml`, mock fixtures),
/// checked on libyaml's event stream before anything builds a tree: the file's size, the nesting
/// depth, and the number of nodes the document expands to, each alias counted as the nodes it
/// repeats (as yaml-cpp and PyYAML's safe loaders do), so a "billion laughs" alias bomb fails at
/// the alias that crosses the limit instead of expanding.
public enum YAMLLimits {
  /// Reads a YAML file whose size is within ``InputLimits/fileBytes``; the diagnostic says why not.
  public static func readFile(at path: String) -> (text: String?, diagnostic: Diagnostic?) {
    let start = SourceLocation(file: path, line: 1, column: 1)
    if let tooLarge = sizeProblem(at: path) { return (nil, tooLarge) }
    guard let data = FileManager.default.contents(atPath: path) else {
      return (nil, .error("cannot read the file", at: start))
    }
    if data.count > InputLimits.fileBytes { return (nil, .fileTooLarge(path, bytes: data.count)) }
    guard let text = String(data: data, encoding: .utf8) else {
      return (nil, .error("the file is not UTF-8 text", at: start, hint: "save it as UTF-8"))
    }
    return (text, nil)
  }

  /// The diagnostic of a file larger than ``InputLimits/fileBytes``, found before reading it.
  public static func sizeProblem(at path: String) -> Diagnostic? {
    // One stat(2), not FileManager's attribute dictionary (a tenth of validating a small file).
    var info = stat()
    guard stat(path, &info) == 0, Int(info.st_size) > InputLimits.fileBytes else { return nil }
    return .fileTooLarge(path, bytes: Int(info.st_size))
  }

  /// The first limit `text` breaks, or nil. Syntax errors are left to the loader, which reports
  /// them with libyaml's own words.
  static func check(_ text: String, file: String) -> Diagnostic? {
    let bytes = text.utf8.count
    if bytes > InputLimits.fileBytes { return .fileTooLarge(file, bytes: bytes) }
    var text = text
    return text.withUTF8 { buffer in scan(buffer, file: file) }
  }

  private struct Frame {
    var anchor: String?
    var nodes: Int
  }

  private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, file: String) -> Diagnostic? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return nil }
    defer { yaml_parser_delete(&parser) }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)

    var frames: [Frame] = []
    var anchors: [String: Int] = [:]
    var total = 0
    var event = yaml_event_t()
    while yaml_parser_parse(&parser, &event) == 1 {
      defer { yaml_event_delete(&event) }
      let location = SourceLocation(
        file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
      var added = 0
      switch event.type {
      case YAML_STREAM_END_EVENT:
        return nil
      case YAML_SCALAR_EVENT:
        added = 1
        if let anchor = string(event.data.scalar.anchor) { anchors[anchor] = 1 }
      case YAML_ALIAS_EVENT:
        added = string(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
        total += added
        if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location) }
      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        let anchor =
          event.type == YAML_SEQUENCE_START_EVENT
          ? string(event.data.sequence_start.anchor) : string(event.data.mapping_start.anchor)
        frames.append(Frame(anchor: anchor, nodes: 1))
        total += 1
        if frames.count > InputLimits.yamlDepth { return .yamlTooDeep(at: location) }
        if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location) }
        continue
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        guard let frame = frames.popLast() else { continue }
        if let anchor = frame.anchor { anchors[anchor] = frame.nodes }
        if !frames.isEmpty { frames[frames.count - 1].nodes += frame.nodes }
        continue
      default:
        continue
      }
      if event.type == YAML_SCALAR_EVENT {
        total += 1
        if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location) }
      }
      if !frames.isEmpty { frames[frames.count - 1].nodes += added }
    }
    return nil
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}
