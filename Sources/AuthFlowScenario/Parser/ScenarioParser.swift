public import AuthFlowCore
public import AuthFlowYAML

/// The parse stage: a located YAML tree → a located `Scenario`, plus every problem found.
///
/// It never stops at the first problem and never traps on input: each reader reports what is
/// wrong and carries on with what it could read, so one run of `authflow validate` lists every
/// error in the file.
public struct ScenarioParser: Sendable {
  /// The actions steps may use; nil accepts any action name and parameters.
  public var catalog: ActionCatalog?

  public init(catalog: ActionCatalog? = nil) {
    self.catalog = catalog
  }

  /// The keys a scenario file may have at the top level, in documentation order.
  public static let topLevelKeys = [
    "scenario", "description", "tags", "requires", "tenant", "client", "vars", "matrix", "steps", "cleanup",
    "timeout",
  ]

  /// Parses YAML text. The scenario is nil only when the text is not YAML or not a mapping;
  /// otherwise it holds what could be read, and `diagnostics` says what could not.
  public func parse(_ text: String, file: String) -> (scenario: Scenario?, diagnostics: [Diagnostic]) {
    let (node, yamlDiagnostics) = YAMLLoader.load(text, file: file)
    guard let node else { return (nil, yamlDiagnostics) }
    let (scenario, diagnostics) = parse(node, file: file)
    return (scenario, yamlDiagnostics + diagnostics)
  }

  /// Parses a composed YAML tree.
  public func parse(_ node: YAMLNode, file: String) -> (scenario: Scenario?, diagnostics: [Diagnostic]) {
    var context = ParseContext(file: file, catalog: catalog)
    let scenario = context.scenario(node)
    return (scenario, context.diagnostics)
  }
}

extension ParseContext {
  mutating func scenario(_ node: YAMLNode) -> Scenario? {
    guard
      let pairs = mapping(node, for: nil, expected: "a scenario (a mapping with 'scenario:' and 'steps:')")
    else { return nil }
    let keys = knownPairs(pairs, allowed: ScenarioParser.topLevelKeys, in: "the scenario")
    let start = pairs.first?.key.location ?? node.location

    let title: Located<String>
    if let pair = keys["scenario"], let text = string(pair.value, for: "scenario") {
      title = text
    } else {
      if keys["scenario"] == nil {
        report(
          .missingKey(
            "scenario", in: "the file", at: start, hint: "add a title first: 'scenario: What this flow checks'"))
      }
      title = Located(file, at: start)
    }
    var scenario = Scenario(file: file, title: title, location: start)
    scenario.description = keys["description"].flatMap { string($0.value, for: "description")?.value }
    scenario.tags = keys["tags"].flatMap { stringList($0.value, for: "tags") } ?? []
    scenario.requires = keys["requires"].flatMap { stringList($0.value, for: "requires") } ?? []
    scenario.tenant = keys["tenant"].flatMap { string($0.value, for: "tenant") }
    scenario.client = keys["client"].flatMap { string($0.value, for: "client") }
    scenario.vars = keys["vars"].map { bindings($0.value, for: "vars") } ?? []
    scenario.matrix = keys["matrix"].map { matrix($0.value) } ?? []
    scenario.timeout = keys["timeout"].flatMap { duration($0.value, for: "timeout") }

    var ids = StepIDs()
    if let pair = keys["steps"] {
      scenario.steps = steps(pair.value, for: "steps", ids: &ids)
      if scenario.steps.isEmpty, case .sequence = pair.value {
        report(.noSteps(at: pair.value.location))
      }
    } else {
      report(.missingKey("steps", in: "the scenario", at: start, hint: "add 'steps:' with at least one step"))
    }
    scenario.cleanup = keys["cleanup"].map { steps($0.value, for: "cleanup", ids: &ids) } ?? []
    let stepCount = scenario.steps.count + scenario.cleanup.count
    if stepCount > InputLimits.stepsPerScenario {
      report(.tooManySteps(stepCount, at: keys["steps"]?.key.location ?? start))
      // Too many to check: the graph checks are skipped rather than run on an input past its limit.
      scenario.steps = Array(scenario.steps.prefix(InputLimits.stepsPerScenario))
      scenario.cleanup = []
    }
    return scenario
  }

  /// `name: value` pairs, in order (`vars`, `save`).
  mutating func bindings(_ node: YAMLNode, for key: String) -> [Binding] {
    guard let pairs = mapping(node, for: key) else { return [] }
    return keyedPairs(pairs).map { name, pair in
      checkName(name, for: key)
      return Binding(name: name, value: template(pair.value))
    }
  }

  /// `matrix:` — name → list of values.
  mutating func matrix(_ node: YAMLNode) -> [MatrixAxis] {
    guard let pairs = mapping(node, for: "matrix") else { return [] }
    var axes: [MatrixAxis] = []
    for (name, pair) in keyedPairs(pairs) {
      checkName(name, for: "matrix")
      guard case .sequence(let items, _) = pair.value else {
        report(.wrongType(expected: "a list of values", found: pair.value, for: "matrix '\(name.value)'"))
        continue
      }
      if items.isEmpty { report(.emptyMatrixAxis(name.value, at: name.location)) }
      axes.append(
        MatrixAxis(name: name, values: items.map { template($0) }, labels: items.map(\.label)))
    }
    // The instance count is checked before any instance exists: a product past the limit (or past
    // Int) is reported and the matrix dropped, so nothing ever materialises it.
    var instances = 1
    for axis in axes {
      let (product, overflow) = instances.multipliedReportingOverflow(by: axis.values.count)
      guard !overflow, product <= InputLimits.matrixInstances else {
        report(.tooManyMatrixInstances(at: node.location))
        return []
      }
      instances = product
    }
    return axes
  }

  /// Names under `vars`, `save` and `matrix` are read as `vars.NAME` / `matrix.NAME`.
  mutating func checkName(_ name: Located<String>, for key: String) {
    guard !name.value.isIdentifier else { return }
    report(.invalidName(name.value, for: key, at: name.location))
  }
}

extension String {
  /// Letters, digits and `_`, not starting with a digit.
  var isIdentifier: Bool {
    guard let first = unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}

extension YAMLNode {
  /// The node as a person would write it, for matrix instance names: scalars as their text,
  /// lists and mappings in flow style.
  var label: String {
    switch self {
    case .scalar(let scalar): return scalar.text
    case .sequence(let items, _): return "[" + items.map(\.label).joined(separator: ", ") + "]"
    case .mapping(let pairs, _):
      return "{" + pairs.map { "\($0.key.label): \($0.value.label)" }.joined(separator: ", ") + "}"
    }
  }
}
