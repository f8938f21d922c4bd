import Foundation

/// Runs Python scripts from tests (JSON Schema checks with `jsonschema`, which `.ci/run` installs).
public enum Python {
  /// Runs `script` with `python3 -c`, returning its exit status and combined output.
  public static func run(_ script: String, arguments: [String] = []) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do {
      try process.run()
    } catch {
      return (127, "could not start python3: \(error)")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
}
