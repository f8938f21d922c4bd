import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs Python scripts from tests (JSON Schema checks with `jsonschema` and PyYAML; JOSE checks
/// against a third party with `cryptography`).
///
/// `swift test` needs nothing installed by hand for them: ``interpreter`` is the system's
/// `python3` when it can import both, else a virtualenv under the package's `.build/test-python`
/// that the first test creates and fills from PyPI (`python3 -m venv`, `pip install jsonschema
/// pyyaml cryptography`, bounded by a deadline). When neither works the tests that need it are skipped and say
/// so, with the reason, on standard error and in the test results.
public enum Python {
  /// The package's root directory (this file is `Tests/AuthFlowTestSupport/Python.swift`).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// A python3 that imports `jsonschema`, `yaml` and `cryptography`, or nil (``unavailableReason`` says why).
  public static let interpreter: String? = locate()

  /// Why ``interpreter`` is nil; printed when the tests that need it are skipped.
  public nonisolated(unsafe) static var unavailableReason = ""

  /// The skip comment of the tests that need ``interpreter``.
  public static let skipNotice =
    "SKIPPED: the JSON Schema checks did NOT run: no python3 with jsonschema, PyYAML and cryptography, and none could be installed into .build/test-python (see the reason printed above; apt-get install python3-venv, or pip install jsonschema pyyaml cryptography)"

  private static let probe = "import jsonschema, yaml, cryptography"

  private static func locate() -> String? {
    if execute("/usr/bin/env", ["python3", "-c", probe], limit: 60).status == 0 { return "python3" }
    let venv = packageRoot.appendingPathComponent(".build/test-python").path
    let python = venv + "/bin/python3"
    if FileManager.default.isExecutableFile(atPath: python), execute(python, ["-c", probe], limit: 60).status == 0 {
      return python
    }
    FileHandle.standardError.write(
      Data("note: installing jsonschema, PyYAML and cryptography into \(venv) for the schema tests (once)\n".utf8))
    let created = execute("/usr/bin/env", ["python3", "-m", "venv", venv], limit: 120)
    guard created.status == 0 else {
      return unavailable("python3 -m venv failed (is python3-venv installed?): \(created.output.suffix(400))")
    }
    let installed = execute(
      venv + "/bin/pip",
      ["install", "--quiet", "--disable-pip-version-check", "jsonschema>=4.18", "pyyaml", "cryptography"],
      limit: 300)
    guard installed.status == 0, execute(python, ["-c", probe], limit: 60).status == 0 else {
      return unavailable(
        "pip install jsonschema pyyaml cryptography failed (no network?): \(installed.output.suffix(400))")
    }
    return python
  }

  private static func unavailable(_ reason: String) -> String? {
    unavailableReason = reason
    FileHandle.standardError.write(Data("\(skipNotice)\nreason: \(reason)\n".utf8))
    return nil
  }

  /// Runs `executable arguments` to completion, killed by its PID past `limit` seconds.
  static func execute(_ executable: String, _ arguments: [String], limit: Double) -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-python-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    let process: SpawnedProcess
    do {
      process = try SpawnedProcess(executable, arguments, output: output.path, errors: output.path)
    } catch {
      return (127, error.description)
    }
    guard let status = process.waitBlocking(limit: .milliseconds(Int(limit * 1000))) else {
      process.send(SIGKILL)
      _ = process.waitBlocking(limit: .seconds(30))
      return (124, "\(executable) did not finish within \(Int(limit))s; killed")
    }
    return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
  }

  /// Runs `script` with the ``interpreter`` (`python3 -c`), returning its exit status and combined
  /// output.
  public static func run(_ script: String, arguments: [String] = []) -> (status: Int32, output: String) {
    guard let interpreter else { return (127, skipNotice + "\nreason: " + unavailableReason) }
    return execute("/usr/bin/env", [interpreter, "-c", script] + arguments, limit: 600)
  }

  /// Validates YAML files against a JSON Schema (draft 2020-12) and prints `NAME valid|invalid`
  /// per file, in argument order. Arguments: the schema path, then the files.
  public static let validateYAMLScript = """
    import json, sys, pathlib
    try:
        import jsonschema, yaml
    except ImportError as error:
        print("MISSING", error)
        sys.exit(3)
    schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for name in sys.argv[2:]:
        errors = list(validator.iter_errors(yaml.safe_load(pathlib.Path(name).read_text())))
        print(name, "invalid" if errors else "valid")
        for error in errors[:3]:
            print("  ", "/".join(str(part) for part in error.absolute_path), error.message[:200])
    """

  /// Validates JSON files against a JSON Schema (draft 2020-12) and prints `NAME valid|invalid`
  /// per file, in argument order. Arguments: the schema path, then the files.
  public static let validateJSONScript = """
    import json, sys, pathlib
    import jsonschema
    schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for name in sys.argv[2:]:
        errors = list(validator.iter_errors(json.loads(pathlib.Path(name).read_text())))
        print(name, "invalid" if errors else "valid")
        for error in errors[:3]:
            print("  ", "/".join(str(part) for part in error.absolute_path), error.message[:200])
    """
}
