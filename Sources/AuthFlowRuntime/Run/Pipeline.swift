public import AuthFlowCore
public import AuthFlowExpression
public import AuthFlowScenario
import AuthFlowYAML
import Foundation

/// The registries and loaders behind the front stages (``ScenarioSource`` → ``ValidatedSuite`` →
/// ``RunPlan``): scenario files checked against the action registry and the function registry,
/// and `authflow.yaml`.
public enum Pipeline {
  /// Every function scenarios can call: the standard ones and those that need the runtime's
  /// modules (`totp`).
  public static let functions: FunctionRegistry = RuntimeFunctions.registry

  /// Loads, parses and validates every scenario under `paths`.
  public static func load(_ paths: [String]) async -> ScenarioLoader.Output {
    await loader.load(paths)
  }

  /// The loader of scenario files, checking them against the action and function registries.
  static var loader: ScenarioLoader { ScenarioLoader(catalog: ActionRegistry.catalog, functions: functions) }

  /// `authflow.yaml`, with its diagnostics and text.
  public struct ProjectLoad: Sendable {
    public var config: ProjectConfig
    public var diagnostics: [Diagnostic]
    public var sources: [String: String]
    /// The tenant profiles file read (as given or found), nil for the embedded mock alone.
    public var file: String? = nil
  }

  /// Reads `explicit` when given, else the first `authflow.yaml` found in a scenario directory
  /// given on the command line, in its parents up to the working directory, or in the working
  /// directory. Without one, the embedded mock is the only tenant.
  public static func loadProject(explicit: String?, near paths: [String]) -> ProjectLoad {
    let file = explicit ?? locateProjectFile(near: paths)
    guard let file else { return ProjectLoad(config: .embedded, diagnostics: [], sources: [:]) }
    if let tooLarge = YAMLLimits.sizeProblem(at: file) {
      return ProjectLoad(config: .embedded, diagnostics: [tooLarge], sources: [:])
    }
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      let diagnostic = Diagnostic.error(
        "cannot read the tenant profiles file", at: SourceLocation(file: file, line: 1, column: 1),
        hint: "check the path given to --config")
      return ProjectLoad(config: .embedded, diagnostics: [diagnostic], sources: [:])
    }
    let (config, diagnostics) = ProjectConfigParser().parse(text, file: file)
    return ProjectLoad(config: config ?? .embedded, diagnostics: diagnostics, sources: [file: text], file: file)
  }

  /// An error for each `authflow.yaml` the search of the scenario directories met (`found`) that
  /// is not the one the run reads (`read`; nil: the embedded mock alone). The scenarios beside it
  /// were written for its tenants, and would run against another's without a word: a passing run
  /// of the wrong tenants. `--config` names the file to read on purpose, so it asks for none.
  public static func unreadProjectFiles(_ found: [String], read: String?) -> [Diagnostic] {
    let readPath = read.map(canonicalPath)
    let using = read.map { "this run reads \($0)" } ?? "this run has no authflow.yaml of its own (the embedded mock)"
    var named: Set<String> = []
    return found.filter { file in
      let path = canonicalPath(file)
      return named.insert(path).inserted && path != readPath
    }.map { file in
      let parent = (file as NSString).deletingLastPathComponent
      let directory = parent.isEmpty ? "." : parent
      return Diagnostic.error(
        "the scenarios under \(directory) have their own authflow.yaml, which this run would not read: \(using)",
        at: SourceLocation(file: file, line: 1, column: 1),
        hint: "give that directory on its own (\(directory)), or name the profiles file with --config")
    }
  }

  private static func canonicalPath(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  static func locateProjectFile(near paths: [String]) -> String? {
    let manager = FileManager.default
    let workingDirectory = manager.currentDirectoryPath
    var candidates: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      var directory = URL(fileURLWithPath: path).standardizedFileURL
      if !isDirectory.boolValue { directory.deleteLastPathComponent() }
      while true {
        candidates.append(directory.appendingPathComponent(ProjectConfig.fileName).path)
        if directory.path == workingDirectory || directory.path == "/" || !directory.path.hasPrefix(workingDirectory) {
          break
        }
        directory.deleteLastPathComponent()
      }
    }
    candidates.append(URL(fileURLWithPath: workingDirectory).appendingPathComponent(ProjectConfig.fileName).path)
    guard let found = candidates.first(where: { manager.fileExists(atPath: $0) }) else { return nil }
    return relativePath(found, to: workingDirectory)
  }

  private static func relativePath(_ path: String, to directory: String) -> String {
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }
}
