import AuthFlowCore
internal import CLibYAML

/// Builds the located tree of a stream's first document from libyaml's events, one event at a
/// time, as Yams' `compose` did: an alias stands for a copy of its anchor's node (positions
/// included), an anchor is defined once its node is complete, a mapping's keys are checked for
/// duplicates at its end, and a second document is an error. No recursion: the open lists and
/// mappings are a stack (whose depth ``YAMLLimits`` bounds before the composer sees it).
struct YAMLComposer {
  /// How the document ended.
  enum Outcome {
    case document(YAMLNode)
    case failed(Diagnostic)

    var result: (YAMLNode?, [Diagnostic]) {
      switch self {
      case .document(let node): return (node, [])
      case .failed(let diagnostic): return (nil, [diagnostic])
      }
    }
  }

  private enum Stage {
    case streamStart, documentStart, nodes, documentEnd, afterDocument
  }

  /// An open list or mapping.
  private struct Frame {
    var isMapping: Bool
    var location: SourceLocation
    var anchor: String?
    /// The tag a key compares (see ``YAMLKeyShape``).
    var tag: String?
    /// Whether this node's shape is needed (it is a key, anchored, or inside either): then every
    /// child's shape is kept in `shapes`.
    var keepsShapes: Bool
    var items: [YAMLNode] = []
    var pairs: [YAMLPair] = []
    var pendingKey: YAMLNode?
    var keys: [YAMLKeyShape] = []
    var shapes: [YAMLKeyShape] = []
  }

  let file: String
  /// Set once the composer has stopped: the document, or why there is none.
  private(set) var outcome: Outcome?
  private var stage = Stage.streamStart
  private var frames: [Frame] = []
  private var root: YAMLNode?
  private var anchors: [String: (node: YAMLNode, shape: YAMLKeyShape)] = [:]

  init(file: String) {
    self.file = file
  }

  /// Adds the next event of the stream. At the end of the stream the outcome is set.
  mutating func add(_ event: yaml_event_t) {
    if event.type == YAML_STREAM_END_EVENT {
      // Reached after one document (or, libyaml's events being well formed, none at all).
      outcome = root.map { .document($0) } ?? .failed(.yamlEmptyFile(file))
      return
    }
    switch stage {
    case .streamStart:
      stage = .documentStart
    case .documentStart:
      stage = .nodes
    case .nodes:
      addNode(event)
    case .documentEnd:
      stage = .afterDocument
    case .afterDocument:
      outcome = .failed(.yamlSecondDocument(at: location(event.start_mark), file: file))
    }
  }

  private mutating func addNode(_ event: yaml_event_t) {
    switch event.type {
    case YAML_SCALAR_EVENT:
      addScalar(event)
    case YAML_ALIAS_EVENT:
      let name = YAMLEventText.string(event.data.alias.anchor) ?? ""
      guard let anchored = anchors[name] else {
        outcome = .failed(.yamlUndefinedAlias(at: location(event.start_mark)))
        return
      }
      attach(anchored.node, shape: anchored.shape)
    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let isMapping = event.type == YAML_MAPPING_START_EVENT
      // The two start events share their layout (anchor, tag, implicit, style).
      let start = event.data.sequence_start
      let anchor = YAMLEventText.string(start.anchor)
      let keepsShapes = anchor != nil || childNeedsShape
      let tag =
        keepsShapes && start.implicit == 0
        ? YAMLKeyShape.tag(
          YAMLEventText.string(start.tag), default: isMapping ? YAMLKeyShape.mapTag : YAMLKeyShape.seqTag)
        : nil
      frames.append(
        Frame(
          isMapping: isMapping, location: location(event.start_mark), anchor: anchor, tag: tag,
          keepsShapes: keepsShapes))
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      guard let frame = frames.popLast() else { return }
      let node: YAMLNode
      var shape: YAMLKeyShape?
      if frame.isMapping {
        if let duplicate = YAMLKeyShape.duplicateKeys(frame.keys, of: frame.pairs) {
          outcome = .failed(duplicate)
          return
        }
        node = .mapping(frame.pairs, frame.location)
        if frame.keepsShapes { shape = .mapping(frame.shapes, tag: frame.tag) }
      } else {
        node = .sequence(frame.items, frame.location)
        if frame.keepsShapes { shape = .sequence(frame.shapes, tag: frame.tag) }
      }
      if let anchor = frame.anchor, let shape { anchors[anchor] = (node, shape) }
      attach(node, shape: shape)
    default:
      break
    }
  }

  private mutating func addScalar(_ event: yaml_event_t) {
    let scalar = event.data.scalar
    let text = YAMLEventText.scalar(scalar.value, length: scalar.length)
    let style = scalar.style
    let node = YAMLNode.scalar(
      YAMLScalar(
        text: text, value: YAMLLoader.typedValue(of: text, isPlain: style == YAML_PLAIN_SCALAR_STYLE),
        isQuoted: style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE,
        isBlock: style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE,
        location: location(event.start_mark)))
    let anchor = YAMLEventText.string(scalar.anchor)
    guard anchor != nil || childNeedsShape else {
      attach(node, shape: nil)
      return
    }
    // A quoted scalar without a tag is a string (`quoted_implicit`); so is one tagged `!`.
    let tag =
      scalar.quoted_implicit == 1
      ? nil : YAMLKeyShape.tag(YAMLEventText.string(scalar.tag), default: YAMLKeyShape.strTag)
    let shape = YAMLKeyShape.scalar(text, tag: tag)
    if let anchor { anchors[anchor] = (node, shape) }
    attach(node, shape: shape)
  }

  /// Whether the next child of the innermost open node needs its shape: it is a mapping key, or
  /// its parent keeps its children's shapes.
  private var childNeedsShape: Bool {
    guard let top = frames.last else { return false }
    return top.keepsShapes || (top.isMapping && top.pendingKey == nil)
  }

  /// Adds a complete node to the innermost open node, or ends the document with it.
  private mutating func attach(_ node: YAMLNode, shape: YAMLKeyShape?) {
    guard !frames.isEmpty else {
      root = node
      stage = .documentEnd
      return
    }
    let top = frames.count - 1
    if frames[top].keepsShapes, let shape { frames[top].shapes.append(shape) }
    guard frames[top].isMapping else {
      frames[top].items.append(node)
      return
    }
    if let key = frames[top].pendingKey {
      frames[top].pairs.append(YAMLPair(key: key, value: node))
      frames[top].pendingKey = nil
    } else {
      frames[top].pendingKey = node
      if let shape { frames[top].keys.append(shape) }
    }
  }

  private func location(_ mark: yaml_mark_t) -> SourceLocation {
    YAMLEventText.location(mark, file: file)
  }
}
