public import AuthFlowCore
public import AuthFlowExpression
import AuthFlowYAML
import Foundation

/// Finds, reads, parses and validates scenario files: the front of `authflow validate` and
/// `authflow run`.
///
/// Paths may be files or directories; directories are searched recursively for `*.yaml` and
/// `*.yml`, skipping `authflow.yaml` and anything under a `tenants/` directory, in sorted order.
/// Files are parsed in parallel; the result lists scenarios and diagnostics in path order.
public struct ScenarioLoader: Sendable {
  /// What loading produced: every scenario that could be read, every problem, and the text of
  /// each file (for diagnostic snippets).
  public struct Output: Sendable {
    /// The scenarios, in file order (files that are not YAML mappings have none).
    public var scenarios: [Scenario]
    /// The scenarios of the files without errors, each with its flow graph, in file order: all of
    /// ``scenarios`` when ``diagnostics`` has no error.
    public var validated: [ValidatedScenario]
    /// Every problem in every file, files in order, each file's sorted by location.
    public var diagnostics: [Diagnostic]
    /// The files read, in order.
    public var files: [String]
    /// The text of each file read, by path.
    public var sources: [String: String]
  }

  /// Reads each file into a scenario.
  public var parser: ScenarioParser
  /// Runs after parsing; nil to parse only.
  public var validator: ScenarioValidator?

  public init(catalog: ActionCatalog? = nil, functions: FunctionRegistry = .standard, validate: Bool = true) {
    parser = ScenarioParser(catalog: catalog)
    validator = validate ? ScenarioValidator(functions: functions, catalog: catalog) : nil
  }

  /// Loads every scenario under `paths`.
  public func load(_ paths: [String]) async -> Output {
    let (diagnostics, files) = Self.find(paths)
    let loaded = await loadFiles(files) { $0 }
    var result = Output(scenarios: [], validated: [], diagnostics: diagnostics, files: files, sources: [:])
    for file in loaded {
      if let scenario = file.scenario { result.scenarios.append(scenario) }
      if let validated = file.validated { result.validated.append(validated) }
      result.diagnostics += file.diagnostics
      if let text = file.text { result.sources[file.path] = text }
    }
    return result
  }

  /// Loads every scenario under `paths` without keeping them: each file's scenario (when it
  /// could be read) and validated scenario (when it has no error) are handed to `digest` as soon
  /// as the file is checked — files in parallel — and dropped; only the digests are kept. The
  /// output's ``Output/scenarios`` and ``Output/validated`` are empty and its ``Output/sources``
  /// hold only the files with diagnostics, so memory does not grow with every file's tree and text.
  /// `authflow run` plans from the digests and loads each scenario again when it runs.
  public func scan<Digest: Sendable>(
    _ paths: [String], digest: @escaping @Sendable (Scenario, ValidatedScenario?) -> Digest
  ) async -> (output: Output, digests: [Digest]) {
    let (diagnostics, files) = Self.find(paths)
    // Only what is kept leaves each task: a `LoadedFile` holds a scenario's whole model inline.
    let loaded = await loadFiles(files) { file in
      ScannedFile(
        path: file.path, text: file.diagnostics.isEmpty ? nil : file.text, diagnostics: file.diagnostics,
        digest: file.scenario.map { digest($0, file.validated) })
    }
    var result = Output(scenarios: [], validated: [], diagnostics: diagnostics, files: files, sources: [:])
    var digests: [Digest] = []
    digests.reserveCapacity(loaded.count)
    for file in loaded {
      if let digest = file.digest { digests.append(digest) }
      result.diagnostics += file.diagnostics
      if let text = file.text { result.sources[file.path] = text }
    }
    return (result, digests)
  }

  /// The validated instances of one file, loaded again (``scan(_:digest:)`` kept none): what a
  /// lazily planned run runs. Nil with the diagnostics when the file no longer loads cleanly.
  public func validatedScenario(at path: String) -> (validated: ValidatedScenario?, diagnostics: [Diagnostic]) {
    let file = loadFile(path)
    return (file.validated, file.diagnostics)
  }

  private static func find(_ paths: [String]) -> (diagnostics: [Diagnostic], files: [String]) {
    var diagnostics: [Diagnostic] = []
    var files: [String] = []
    for path in paths {
      let found = ScenarioFiles.find(at: path)
      diagnostics += found.diagnostics
      files += found.files
    }
    return (diagnostics, files)
  }

  /// Parses and validates one file's text.
  public func load(text: String, file: String) -> (scenario: Scenario?, diagnostics: [Diagnostic]) {
    let (scenario, _, diagnostics) = loadValidating(text: text, file: file)
    return (scenario, diagnostics)
  }

  /// The parse stage, then the validate stage, on one file's text: the validated scenario when
  /// there is a validator and no error.
  func loadValidating(
    text: String, file: String
  ) -> (scenario: Scenario?, validated: ValidatedScenario?, diagnostics: [Diagnostic]) {
    let parsed = parser.parsed(text, file: file)
    guard let validator else { return (parsed.scenario, nil, parsed.diagnostics.sortedByLocation) }
    let (validated, diagnostics) = validator.validate(parsed)
    return (parsed.scenario, validated, diagnostics)
  }

  /// What ``scan(_:digest:)`` keeps of a file.
  private struct ScannedFile<Digest: Sendable>: Sendable {
    var path: String
    var text: String?
    var diagnostics: [Diagnostic]
    var digest: Digest?
  }

  private struct LoadedFile: Sendable {
    var path: String
    var text: String?
    var scenario: Scenario?
    var validated: ValidatedScenario?
    var diagnostics: [Diagnostic]
  }

  /// Files in chunks, eight per core, so 10,000 small files do not become 10,000 tasks, yet a core
  /// that another process slows down holds back only a small chunk; each loaded file goes through
  /// `keep` on the task that loaded it. Results in file order.
  private func loadFiles<Kept: Sendable>(
    _ files: [String], keep: @escaping @Sendable (LoadedFile) -> Kept
  ) async -> [Kept] {
    guard !files.isEmpty else { return [] }
    let workers = max(1, ProcessInfo.processInfo.activeProcessorCount * 8)
    let chunkSize = max(1, (files.count + workers - 1) / workers)
    let chunks = stride(from: 0, to: files.count, by: chunkSize).map {
      Array(files[$0..<min($0 + chunkSize, files.count)])
    }
    return await withTaskGroup(of: (Int, [Kept]).self) { group in
      for (index, chunk) in chunks.enumerated() {
        group.addTask { (index, chunk.map { keep(loadFile($0)) }) }
      }
      var results = [[Kept]](repeating: [], count: chunks.count)
      for await (index, loaded) in group { results[index] = loaded }
      // Each chunk is let go as it is copied: the chunks and the whole list are not held at once.
      var all: [Kept] = []
      all.reserveCapacity(files.count)
      for index in results.indices {
        all.append(contentsOf: results[index])
        results[index] = []
      }
      return all
    }
  }

  private func loadFile(_ path: String) -> LoadedFile {
    if let tooLarge = YAMLLimits.sizeProblem(at: path) { return LoadedFile(path: path, diagnostics: [tooLarge]) }
    guard let data = FileManager.default.contents(atPath: path) else {
      return LoadedFile(path: path, diagnostics: [.unreadableFile(path)])
    }
    guard let text = String(data: data, encoding: .utf8) else {
      return LoadedFile(path: path, diagnostics: [.notUTF8(path)])
    }
    let (scenario, validated, diagnostics) = loadValidating(text: text, file: path)
    return LoadedFile(path: path, text: text, scenario: scenario, validated: validated, diagnostics: diagnostics)
  }
}
