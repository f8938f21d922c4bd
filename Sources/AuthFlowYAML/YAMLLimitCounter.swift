import AuthFlowCore
internal import CLibYAML

/// Counts libyaml's events against the depth and node limits of ``YAMLLimits``, one event at a
/// time, over the whole stream (every document, and on after the composer has stopped): a limit
/// crossed before libyaml's first syntax error is the one problem reported.
struct YAMLLimitCounter {
  let file: String
  private var frames: [Frame] = []
  /// The nodes each anchor's node expands to, by anchor name (the latest definition wins).
  private var anchors: [String: Int] = [:]
  private var total = 0

  private struct Frame {
    var anchor: String?
    var nodes: Int
  }

  init(file: String) {
    self.file = file
  }

  /// Counts `event`: the diagnostic of the limit it crosses, or nil.
  mutating func count(_ event: yaml_event_t) -> Diagnostic? {
    switch event.type {
    case YAML_SCALAR_EVENT:
      if let anchor = YAMLEventText.string(event.data.scalar.anchor) { anchors[anchor] = 1 }
      total += 1
      if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location(of: event)) }
      if !frames.isEmpty { frames[frames.count - 1].nodes += 1 }
    case YAML_ALIAS_EVENT:
      let added = YAMLEventText.string(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
      total += added
      if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location(of: event)) }
      if !frames.isEmpty { frames[frames.count - 1].nodes += added }
    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let anchor =
        event.type == YAML_SEQUENCE_START_EVENT
        ? YAMLEventText.string(event.data.sequence_start.anchor)
        : YAMLEventText.string(event.data.mapping_start.anchor)
      frames.append(Frame(anchor: anchor, nodes: 1))
      total += 1
      if frames.count > InputLimits.yamlDepth { return .yamlTooDeep(at: location(of: event)) }
      if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location(of: event)) }
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      guard let frame = frames.popLast() else { return nil }
      if let anchor = frame.anchor { anchors[anchor] = frame.nodes }
      if !frames.isEmpty { frames[frames.count - 1].nodes += frame.nodes }
    default:
      break
    }
    return nil
  }

  private func location(of event: yaml_event_t) -> SourceLocation {
    YAMLEventText.location(event.start_mark, file: file)
  }
}
