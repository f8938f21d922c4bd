import AuthFlowCore
import AuthFlowResults
import AuthFlowScenario

/// A scenario's flow graph as inline SVG, laid out by ``AuthFlowScenario/GraphLayout`` from the
/// steps' `needs` (so it draws the same from a live run and from a merged JSON report): one box
/// per step, coloured by its status (``HTMLStatusStyle``), linking to the step's details; edges
/// from each step to those that wait for it; cleanup in a dashed frame reached by "always" edges.
/// A scenario that never started draws the steps it planned, each *not run* (white, dotted).
struct HTMLFlowGraph {
  var scenario: ScenarioReport
  /// Prefix of the element ids of this scenario (`sc3`).
  var anchor: String

  /// The layout of the scenario's steps in file order (main steps, then cleanup), as
  /// `authflow graph` lays out the parsed scenario: the same drawing from a run or its JSON.
  var layout: GraphLayout {
    let ordered = scenario.steps.sorted { lhs, rhs in
      (lhs.phase == .cleanup ? 1 : 0, lhs.location.line, lhs.location.column)
        < (rhs.phase == .cleanup ? 1 : 0, rhs.location.line, rhs.location.column)
    }
    return GraphLayout(
      ordered.map { GraphLayout.Item(id: $0.id, dependencies: $0.needs, isCleanup: $0.phase == .cleanup) })
  }

  /// The element id of a step's details.
  static func stepAnchor(_ scenarioAnchor: String, index: Int) -> String { "\(scenarioAnchor)-step\(index)" }

  func render() -> String {
    guard !scenario.steps.isEmpty else { return "" }
    let layout = self.layout
    var stepIndex: [String: Int] = [:]
    var stepByKey: [String: StepReport] = [:]
    for (index, step) in scenario.steps.enumerated() {
      let key = "\(step.phase == .cleanup)/\(step.id)"
      if stepByKey[key] == nil {
        stepByKey[key] = step
        stepIndex[key] = index
      }
    }
    let width = Int(layout.width.rounded(.up))
    let height = Int(layout.height.rounded(.up))
    var svg =
      "<svg class=\"flow\" xmlns=\"http://www.w3.org/2000/svg\""
      + MarkupEscaping.htmlAttributes([
        ("width", String(width)), ("height", String(height)), ("viewBox", "0 0 \(width) \(height)"), ("role", "img"),
        ("aria-label", "flow graph of \(scenario.name)"),
      ]) + ">"
    let marker = "\(anchor)-arrow"
    svg +=
      "<defs><marker id=\"\(marker)\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#8c959f\"/></marker></defs>"
    if layout.boxes.contains(where: \.isCleanup) {
      let top = layout.cleanupTop
      svg +=
        "<rect class=\"cleanup\""
        + MarkupEscaping.htmlAttributes([
          ("x", number(4)), ("y", number(top)), ("width", number(layout.width - 8)),
          ("height", number(layout.height - top - 4)), ("rx", "8"),
        ]) + "/>"
      svg +=
        "<text class=\"cleanup-title\"" + MarkupEscaping.htmlAttributes([("x", "12"), ("y", number(top + 16))])
        + ">cleanup (always runs)</text>"
    }
    let halfHeight = GraphLayout.boxHeight / 2
    for edge in layout.edges {
      guard let from = layout.box(edge.from), let to = layout.box(edge.to) else { continue }
      let startY = from.y + halfHeight
      let endY = to.y - halfHeight
      let bend = max(20, (endY - startY) / 2)
      let path =
        "M\(number(from.x)) \(number(startY)) C\(number(from.x)) \(number(startY + bend)) "
        + "\(number(to.x)) \(number(endY - bend)) \(number(to.x)) \(number(endY))"
      svg +=
        "<path class=\"edge\(edge.always ? " always" : "")\" d=\"\(path)\" marker-end=\"url(#\(marker))\"/>"
    }
    for box in layout.boxes {
      let key = "\(box.isCleanup)/\(box.id)"
      let step = stepByKey[key]
      // A step of a scenario that never started has no status of its own: it was not run.
      let status = scenario.started ? step?.status : nil
      let left = box.x - GraphLayout.boxWidth / 2
      let top = box.y - halfHeight
      let line = scenario.started ? step.map { statusLine($0) } : "○ \(HTMLStatusStyle.label(nil))"
      let detail = [step?.action, line].compactMap { $0 }.joined(separator: " · ")
      let target = stepIndex[key].map { "#" + Self.stepAnchor(anchor, index: $0) } ?? "#\(anchor)"
      svg += "<a" + MarkupEscaping.htmlAttributes([("href", target)]) + ">"
      svg +=
        "<g"
        + MarkupEscaping.htmlAttributes([
          ("class", "node \(HTMLStatusStyle.cssClass(status))"), ("data-step", box.id),
          ("data-status", HTMLStatusStyle.label(status)),
        ]) + ">"
      svg += "<title>" + MarkupEscaping.html(title(box.id, step: step)) + "</title>"
      svg +=
        "<rect"
        + MarkupEscaping.htmlAttributes([
          ("x", number(left)), ("y", number(top)), ("width", number(GraphLayout.boxWidth)),
          ("height", number(GraphLayout.boxHeight)), ("rx", "8"),
        ]) + "/>"
      svg +=
        "<text class=\"id\"" + MarkupEscaping.htmlAttributes([("x", number(left + 10)), ("y", number(top + 19))])
        + ">" + MarkupEscaping.html(Self.clip(box.id, 26)) + "</text>"
      svg +=
        "<text" + MarkupEscaping.htmlAttributes([("x", number(left + 10)), ("y", number(top + 37))]) + ">"
        + MarkupEscaping.html(Self.clip(detail, 30)) + "</text>"
      svg += "</g></a>"
    }
    return svg + "</svg>"
  }

  /// `✗ failed`, `✓ 120ms`, `− skipped`.
  private func statusLine(_ step: StepReport) -> String {
    switch step.status {
    case .passed: "\(step.status.mark) \(DurationText.format(step.duration))"
    default: "\(step.status.mark) \(step.status.rawValue)"
    }
  }

  /// The tooltip: the step, its status and why.
  private func title(_ id: String, step: StepReport?) -> String {
    guard let step else { return "\(id): not run" }
    if !scenario.started {
      return "\(step.title): \(HTMLStatusStyle.label(nil))" + (step.skipReason.map { " (\($0))" } ?? "")
    }
    var text = "\(step.title): \(step.status.rawValue)"
    if let reason = step.skipReason { text += " (\(reason))" }
    if let problem = step.problems.first { text += "\n\(problem.message)" }
    return text
  }

  static func clip(_ text: String, _ length: Int) -> String {
    text.count > length ? String(text.prefix(length - 1)) + "…" : text
  }

  private func number(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
