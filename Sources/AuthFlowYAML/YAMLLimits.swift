public import AuthFlowCore
import Foundation

/// The resource limits of every YAML input (scenario files, `authflow.yaml`, mock fixtures): the
/// file's size, checked before it is read, and — counted on libyaml's event stream as the tree is
/// built (`YAMLLimitCounter`) — the nesting depth and the number of nodes the document expands to,
/// each alias counted as the nodes it repeats (as yaml-cpp and PyYAML's safe loaders do), so a
/// "billion laughs" alias bomb fails at the alias that crosses the limit instead of expanding.
public enum YAMLLimits {
  /// Reads a YAML file whose size is within ``InputLimits/fileBytes``; the diagnostic says why not.
  public static func readFile(at path: String) -> (text: String?, diagnostic: Diagnostic?) {
    let start = SourceLocation(file: path, line: 1, column: 1)
    if let tooLarge = sizeProblem(at: path) { return (nil, tooLarge) }
    guard let data = FileManager.default.contents(atPath: path) else {
      return (nil, .error("cannot read the file", at: start))
    }
    if data.count > InputLimits.fileBytes { return (nil, .fileTooLarge(path, bytes: data.count)) }
    guard let text = String(data: data, encoding: .utf8) else {
      return (nil, .error("the file is not UTF-8 text", at: start, hint: "save it as UTF-8"))
    }
    return (text, nil)
  }

  /// The diagnostic of a file larger than ``InputLimits/fileBytes``, found before reading it.
  public static func sizeProblem(at path: String) -> Diagnostic? {
    // One stat(2), not FileManager's attribute dictionary (a tenth of validating a small file).
    var info = stat()
    guard stat(path, &info) == 0, Int(info.st_size) > InputLimits.fileBytes else { return nil }
    return .fileTooLarge(path, bytes: Int(info.st_size))
  }
}
