import AuthFlowScenario
public import Foundation

/// The scenarios the repository ships (`scenarios/`, `conformance-pack/`), as the generated
/// capability page reads them: each file's path, relative to the repository, and its `requires:`.
public struct BundledScenarios: Sendable {
  /// The folders, relative to the repository.
  public static let folders = ["scenarios", "conformance-pack"]

  /// Path relative to the repository → the capabilities its scenario requires.
  public var requirements: [String: [String]]

  public init(requirements: [String: [String]]) {
    self.requirements = requirements
  }

  /// Reads the bundled scenarios of the repository at `repository` (unvalidated: only `requires:`
  /// is read).
  public static func load(repository: URL) async -> BundledScenarios {
    let paths = folders.map { repository.appendingPathComponent($0).path }
      .filter { FileManager.default.fileExists(atPath: $0) }
    let output = await ScenarioLoader(catalog: ActionRegistry.catalog, validate: false).load(paths)
    let root = repository.standardizedFileURL.path + "/"
    var requirements: [String: [String]] = [:]
    for scenario in output.scenarios {
      let file = URL(fileURLWithPath: scenario.file).standardizedFileURL.path
      let path = file.hasPrefix(root) ? String(file.dropFirst(root.count)) : file
      requirements[path, default: []] += scenario.requires.map(\.value)
    }
    return BundledScenarios(requirements: requirements)
  }

  /// The files whose scenario requires `capability`, sorted.
  public func requiring(_ capability: String) -> [String] {
    requirements.filter { $0.value.contains(capability) }.keys.sorted()
  }
}
