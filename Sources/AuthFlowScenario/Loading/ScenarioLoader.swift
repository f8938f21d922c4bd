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
    /// The files read, in order (by ``load(_:)``; ``scan(_:digest:starting:consume:)`` keeps
    /// none, and tells how many).
    public var files: [String]
    /// The text of each file read, by path.
    public var sources: [String: String]
    /// The tenant profiles files (`authflow.yaml`) met while searching the directories: not
    /// scenarios, and not read here.
    public var projectFiles: [String] = []
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
    let (diagnostics, files, projectFiles) = Self.find(paths)
    let loaded = await loadFiles(files) { $0 }
    var result = Output(scenarios: [], validated: [], diagnostics: diagnostics, files: Array(files), sources: [:])
    result.projectFiles = projectFiles
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
  /// as the file is checked — files in parallel — and dropped; each digest is then handed to
  /// `consume`, in file order, as soon as the files before it are done, and not kept. The
  /// output's ``Output/scenarios``, ``Output/validated`` and ``Output/files`` are empty (the
  /// number of files found is handed to `starting` before any is loaded, and the paths are kept
  /// packed, ``PathList``) and its ``Output/sources`` hold only the files with diagnostics, so
  /// memory does not grow with every file's tree and text, nor with the digests. `authflow run` plans from the digests and loads each scenario
  /// again when it runs.
  public func scan<Digest: Sendable>(
    _ paths: [String], digest: @escaping @Sendable (Scenario, ValidatedScenario?) -> Digest,
    starting: (_ files: Int) -> Void = { _ in }, consume: (Digest) -> Void
  ) async -> Output {
    let (diagnostics, files, projectFiles) = Self.find(paths)
    starting(files.count)
    var result = Output(scenarios: [], validated: [], diagnostics: diagnostics, files: [], sources: [:])
    result.projectFiles = projectFiles
    // Only what is kept leaves each task: a `LoadedFile` holds a scenario's whole model inline.
    await loadFiles(
      files,
      keep: { file in
        ScannedFile(
          path: file.path, text: file.diagnostics.isEmpty ? nil : file.text, diagnostics: file.diagnostics,
          digest: file.scenario.map { digest($0, file.validated) })
      },
      deliver: { file in
        if let digest = file.digest { consume(digest) }
        result.diagnostics += file.diagnostics
        if let text = file.text { result.sources[file.path] = text }
      })
    return result
  }

  /// The validated instances of one file, loaded again (``scan(_:digest:starting:consume:)`` kept none): what a
  /// lazily planned run runs. Nil with the diagnostics when the file no longer loads cleanly.
  public func validatedScenario(at path: String) -> (validated: ValidatedScenario?, diagnostics: [Diagnostic]) {
    let file = loadFile(path)
    return (file.validated, file.diagnostics)
  }

  private static func find(_ paths: [String]) -> (diagnostics: [Diagnostic], files: PathList, projectFiles: [String]) {
    var diagnostics: [Diagnostic] = []
    var files = PathList()
    var projectFiles: [String] = []
    for path in paths {
      let found = ScenarioFiles.find(at: path)
      diagnostics += found.diagnostics
      files.append(contentsOf: found.files)
      projectFiles += found.projectFiles
    }
    // A file named twice (`scenarios/ scenarios/login.yaml`) is one scenario, run once, as test
    // runners do; one path's files are distinct already.
    if paths.count > 1 {
      var seen: Set<String> = []
      files = files.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }
    return (diagnostics, files, projectFiles)
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

  /// What ``scan(_:digest:starting:consume:)`` keeps of a file.
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

  /// Files in chunks, each loaded file through `keep` on the task that loaded it. Results in
  /// file order.
  private func loadFiles<Kept: Sendable>(
    _ files: PathList, keep: @escaping @Sendable (LoadedFile) -> Kept
  ) async -> [Kept] {
    var all: [Kept] = []
    all.reserveCapacity(files.count)
    await loadFiles(files, keep: keep) { all.append($0) }
    return all
  }

  /// The same, each result handed to `deliver` in file order as soon as the chunks before its own
  /// are done. Chunks are small (at most 256 files, and at least eight per core for a short
  /// list), so a core that another process slows down holds back little; a new chunk starts as
  /// one finishes, and never more than eight per core past the first one not yet delivered, so
  /// only those are held — never the whole list, however many files there are.
  private func loadFiles<Kept: Sendable>(
    _ files: PathList, keep: @escaping @Sendable (LoadedFile) -> Kept, deliver: (Kept) -> Void
  ) async {
    guard !files.isEmpty else { return }
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let chunkSize = min(256, max(1, (files.count + cores * 8 - 1) / (cores * 8)))
    let chunkCount = (files.count + chunkSize - 1) / chunkSize
    let running = cores * 2
    let window = cores * 8
    await withTaskGroup(of: (Int, [Kept]).self) { group in
      var launched = 0
      func launch() {
        let start = launched * chunkSize
        let chunk = files[start..<min(start + chunkSize, files.count)]
        let index = launched
        // Each path is made a string on the task that loads it.
        group.addTask { (index, chunk.map { keep(loadFile($0)) }) }
        launched += 1
      }
      while launched < min(running, chunkCount) { launch() }
      var waiting: [Int: [Kept]] = [:]
      var next = 0
      var inFlight = launched
      while inFlight > 0, let (index, loaded) = await group.next() {
        inFlight -= 1
        waiting[index] = loaded
        while let ready = waiting.removeValue(forKey: next) {
          ready.forEach(deliver)
          next += 1
        }
        while inFlight < running, launched < chunkCount, launched - next < window {
          launch()
          inFlight += 1
        }
      }
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
