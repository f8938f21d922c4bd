import ArgumentParser
import AuthFlowTelemetry

/// `--otlp-endpoint URL` of `run` and `monitor`.
enum OTLPOption {
  /// The export to `endpoint`, started; nil without one. A URL that is not http(s) is a usage error.
  static func start(_ endpoint: String?) throws -> OTLPTraceExport.Handle? {
    guard let endpoint else { return nil }
    do {
      return try OTLPTraceExport.start(endpoint: endpoint)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// Checked in `validate()`, before anything runs.
  static func check(_ endpoint: String?) throws {
    if let endpoint, let problem = OTLPTraceExport.problem(with: endpoint) { throw ValidationError(problem) }
  }
}
