import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// Every case the scenario fuzzer (`fuzz/run`) ever found, kept in `Tests/FuzzRegressions/` and
/// replayed here in-process: a crash or a stack overflow takes the test process down, so these
/// fail loudly if a fix is ever undone.
///
/// Each file starts with comment lines; `# expect: KIND` says what must happen:
/// - `invalid`: validation reports at least one error, every error at a `file:line:col`;
/// - `valid`: validation reports no error;
/// - `runs [STATUS]`: validation reports no error and a run against the embedded mock tenant ends
///   with a report of the scenario (with that status when one is named);
/// - `interrupted`: a signal or pipe case, replayed by `fuzz/run` against the binary, not here.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("FuzzRegressions")

  struct Case: CustomTestStringConvertible, Sendable {
    var path: String
    var expectation: [String]
    var testDescription: String { (path as NSString).lastPathComponent }
  }

  static var cases: [Case] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { name in
      let path = directory.appendingPathComponent(name).path
      let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      let line = text.split(separator: "\n").first { $0.hasPrefix("# expect:") } ?? "# expect: valid"
      let words = line.dropFirst("# expect:".count).split(separator: " ").map(String.init)
      return Case(path: path, expectation: words)
    }
  }

  @Test func theCorpusIsThere() {
    #expect(Self.cases.count >= 10, "Tests/FuzzRegressions holds the fuzzer's findings")
  }

  @Test(arguments: cases)
  func replay(_ regression: Case) async throws {
    let loaded = await Pipeline.load([regression.path])
    let errors = loaded.diagnostics.filter(\.isError)
    switch regression.expectation.first {
    case "invalid":
      #expect(!errors.isEmpty, "expected a validation error")
      for error in errors {
        let location = try #require(error.location, "an error without a location: \(error.description)")
        #expect(location.line >= 1 && location.column >= 1, "\(error.description)")
      }
    case "valid":
      #expect(errors.isEmpty, "\(errors.map(\.description))")
    case "runs":
      #expect(errors.isEmpty, "\(errors.map(\.description))")
      let instances = loaded.scenarios.flatMap(\.instances)
      try #require(!instances.isEmpty)
      let report = try await MockHarness.run(instances: instances, secrets: SecretRegistry())
      #expect(report.scenarios.count == instances.count)
      if regression.expectation.count > 1 {
        for scenario in report.scenarios {
          #expect(scenario.status.rawValue == regression.expectation[1], "\(scenario.steps.flatMap(\.problems))")
        }
      }
    case "interrupted":
      break
    default:
      Issue.record("unknown expectation \(regression.expectation) in \(regression.testDescription)")
    }
  }
}
