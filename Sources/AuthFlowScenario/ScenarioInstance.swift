/// One run of a scenario: the scenario with one value per matrix axis.
///
/// A scenario without a matrix has one instance, named after the scenario. With a matrix, each
/// combination of values (the cartesian product, axes in declaration order, the last axis varying
/// fastest) is its own instance, named `Title [axis: value, axis: value]`.
public struct ScenarioInstance: Sendable {
  /// One axis's value in this instance: readable at `matrix.NAME`.
  public struct MatrixValue: Sendable {
    /// The axis name.
    public var name: String
    /// The value, possibly an expression.
    public var value: Template
    /// The value as written in the file.
    public var label: String
  }

  /// The scenario this is a run of.
  public var scenario: Scenario
  /// The scenario's flow graph, shared by all its instances: what the interpreter walks.
  public var graph: FlowGraph
  /// The values of this combination, in axis order.
  public var matrix: [MatrixValue]
  /// 0-based position among the scenario's instances.
  public var index: Int

  /// `Login works [browser: chrome, connection: email]`, or the title without a matrix.
  public var name: String {
    guard !matrix.isEmpty else { return scenario.title.value }
    return scenario.title.value + " [" + matrix.map { "\($0.name): \($0.label)" }.joined(separator: ", ") + "]"
  }

  /// The value of `matrix.NAME` in this instance.
  public func matrixValue(_ name: String) -> Template? {
    matrix.first { $0.name == name }?.value
  }
}

extension Scenario {
  /// Every run of the scenario, one per matrix combination (one when there is no matrix; none
  /// when an axis has no values).
  public var instances: [ScenarioInstance] { instances(graph: FlowGraph(self)) }

  /// ``instances`` sharing a graph already built (the validated scenario's).
  func instances(graph: FlowGraph) -> [ScenarioInstance] {
    var combinations: [[ScenarioInstance.MatrixValue]] = [[]]
    for axis in matrix {
      var next: [[ScenarioInstance.MatrixValue]] = []
      for combination in combinations {
        for (offset, value) in axis.values.enumerated() {
          let label = offset < axis.labels.count ? axis.labels[offset] : value.label
          next.append(combination + [.init(name: axis.name.value, value: value, label: label)])
        }
      }
      combinations = next
    }
    return combinations.enumerated().map { index, values in
      ScenarioInstance(scenario: self, graph: graph, matrix: values, index: index)
    }
  }
}
