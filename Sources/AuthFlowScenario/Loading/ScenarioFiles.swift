import AuthFlowCore
import Foundation

#if canImport(Glibc)
  import Glibc

  /// What `opendir` returns here.
  typealias DirectoryStream = OpaquePointer
#elseif canImport(Darwin)
  import Darwin

  typealias DirectoryStream = UnsafeMutablePointer<DIR>
#endif

/// Finds scenario files under a path.
enum ScenarioFiles {
  static let extensions: Set<String> = ["yaml", "yml"]

  /// What a search found: the scenario files, why some could not be had, and the tenant
  /// profiles files (`authflow.yaml`) met on the way that have scenario files beside or below
  /// them (they are not scenarios).
  struct Found {
    var files: PathList
    var diagnostics: [Diagnostic]
    var projectFiles: [String] = []
  }

  /// The scenario files at `path` (itself, or those under it, sorted), or a diagnostic saying why
  /// there are none. A directory under it that cannot be read is an error, not a silent gap: its
  /// scenarios would otherwise be missing from a run that passes.
  static func find(
    at path: String, openDirectory: (String) -> DirectoryStream? = { opendir($0) }
  ) -> Found {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return Found(files: PathList(), diagnostics: [.noSuchFile(path)])
    }
    guard isDirectory.boolValue else { return Found(files: PathList([path]), diagnostics: []) }
    let walk = scan(directory: path, openDirectory: openDirectory)
    let problems = walk.unreadable.map(Diagnostic.unreadableDirectory)
    let diagnostics = walk.files.isEmpty && problems.isEmpty ? [.noScenarios(in: path)] : problems
    // A tenant profiles file counts where scenarios found are beside or below it.
    let projectFiles = walk.projectFiles.filter { project in
      walk.files.contains(pathStartingWith: project.dropLast(ProjectConfig.fileName.count))
    }
    return Found(files: walk.files, diagnostics: diagnostics, projectFiles: projectFiles)
  }

  /// The scenario files under `directory`, named under `directory` as given, sorted. A directory
  /// given as a symbolic link is followed, as `find -H` does; links to directories met inside it
  /// are not (no cycles), links to files are taken as files. Anything under a `tenants/`
  /// directory and every `authflow.yaml` is left out of `files`; the latter are `projectFiles`.
  ///
  /// A walk of its own with `readdir`: Foundation's enumerator listed nothing under a directory
  /// given as a link, and named each file by deleting every occurrence of the base path from its
  /// path, so `/s/a/s/x.yaml` under `/s` became `/s/ax.yaml` ("cannot read the file").
  private static func scan(
    directory: String, openDirectory: (String) -> DirectoryStream?
  ) -> (files: PathList, unreadable: [String], projectFiles: [String]) {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    var files = PathList()
    var unreadable: [String] = []
    var projectFiles: [String] = []
    var pending = [base]
    // Bounded: each directory is read once (links to directories are not followed).
    while let current = pending.popLast() {
      let shown = current.isEmpty ? "/" : current
      guard let stream = openDirectory(shown) else {
        unreadable.append(shown)
        continue
      }
      defer { closedir(stream) }
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard name != ".", name != ".." else { continue }
        let path = current + "/" + name
        switch kind(of: entry.pointee.d_type, at: path) {
        case .directory:
          if name != "tenants" { pending.append(path) }
        case .file:
          if name == ProjectConfig.fileName {
            projectFiles.append(path)
            continue
          }
          let pathExtension = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
          guard name.contains("."), extensions.contains(pathExtension) else { continue }
          files.append(path)
        case .other:
          continue
        }
      }
    }
    return (files.sorted(), unreadable.sorted(), projectFiles.sorted())
  }

  private enum EntryKind { case directory, file, other }

  /// A directory entry's kind, from `readdir`'s type when the file system gives it, else from
  /// `lstat`; a link is a file when it leads to one, and never a directory to walk.
  private static func kind(of type: UInt8, at path: String) -> EntryKind {
    switch Int32(type) {
    case Int32(DT_DIR): return .directory
    case Int32(DT_REG): return .file
    case Int32(DT_LNK): return isRegularFile(path) ? .file : .other
    default:
      var status = stat()
      guard lstat(path, &status) == 0 else { return .other }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: return .directory
      case S_IFREG: return .file
      case S_IFLNK: return isRegularFile(path) ? .file : .other
      default: return .other
      }
    }
  }

  /// Whether `path`, its links followed, is a regular file.
  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
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

  static func unreadableDirectory(_ path: String) -> Diagnostic {
    .error(
      "cannot read the directory, so its scenarios cannot run", at: SourceLocation(file: path, line: 1, column: 1),
      hint: "check its permissions, or leave it out of the paths")
  }

  static func unreadableFile(_ path: String) -> Diagnostic {
    .error("cannot read the file", at: SourceLocation(file: path, line: 1, column: 1), hint: "check its permissions")
  }

  static func notUTF8(_ path: String) -> Diagnostic {
    .error("the file is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1), hint: "save it as UTF-8")
  }
}
