import AuthFlowCore
import Foundation

/// Finds scenario files under a path.
enum ScenarioFiles {
  static let extensions: Set<String> = ["yaml", "yml"]

  /// The scenario files at `path` (itself, or those under it, sorted), or a diagnostic saying why
  /// there are none.
  static func find(at path: String) -> (files: [String], diagnostics: [Diagnostic]) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return ([], [.noSuchFile(path)])
    }
    guard isDirectory.boolValue else { return ([path], []) }
    let files = scan(directory: path)
    return files.isEmpty ? ([], [.noScenarios(in: path)]) : (files, [])
  }

  private static func scan(directory: String) -> [String] {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let components = relative.split(separator: "/")
      if components.dropLast().contains("tenants") { continue }
      guard let name = components.last, name != "tenants" else { continue }
      let pathExtension = name.split(separator: ".").last.map(String.init) ?? ""
      guard name.contains("."), extensions.contains(pathExtension.lowercased()) else { continue }
      if name == Substring(ProjectConfig.fileName) { continue }
      files.append(base.isEmpty ? relative : base + "/" + relative)
    }
    return files.sorted()
  }
}

extension Diagnostic {
  static func noSuchFile(_ path: String) -> Diagnostic {
    .error("no such file", at: SourceLocation(file: path, line: 1, column: 1), hint: "check the path")
  }

  static func noScenarios(in directory: String) -> Diagnostic {
    .error(
      "no scenario files in this directory", at: SourceLocation(file: directory, line: 1, column: 1),
      hint: "scenarios are *.yaml or *.yml files (authflow.yaml and tenants/ are not scenarios)")
  }

  static func unreadableFile(_ path: String) -> Diagnostic {
    .error("cannot read the file", at: SourceLocation(file: path, line: 1, column: 1), hint: "check its permissions")
  }

  static func notUTF8(_ path: String) -> Diagnostic {
    .error("the file is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1), hint: "save it as UTF-8")
  }
}
