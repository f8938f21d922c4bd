import Logging
import OTel
import ServiceLifecycle
public import Tracing

/// The run's spans sent over OTLP/HTTP (protobuf) to a collector: `authflow run --otlp-endpoint
/// URL` and `authflow monitor --otlp-endpoint URL`. swift-otel's tracer, its batch processor and
/// exporter run as services until ``Handle/finish()``, which flushes what is queued.
public enum OTLPTraceExport {
  /// Why the export could not start.
  public struct StartError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// A running export: its tracer for the run, and the finish that flushes it.
  public struct Handle: Sendable {
    public let tracer: any Tracer
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// Sends what is queued (within the exporter's timeout) and stops.
    public func finish() async {
      await group.triggerGracefulShutdown()
      _ = await task.result
    }
  }

  /// `http://collector:4318` → `http://collector:4318/v1/traces`; a URL that already names the
  /// traces path is kept.
  public static func tracesURL(_ endpoint: String) -> String {
    if endpoint.hasSuffix("/v1/traces") { return endpoint }
    return endpoint.hasSuffix("/") ? endpoint + "v1/traces" : endpoint + "/v1/traces"
  }

  /// Why `endpoint` cannot be exported to, or nil: an http(s) URL of at most 2,048 bytes.
  public static func problem(with endpoint: String) -> String? {
    guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://"), endpoint.utf8.count <= 2048 else {
      return "--otlp-endpoint must be an http:// or https:// URL (got '\(endpoint.prefix(80))')"
    }
    return nil
  }

  /// Starts exporting to `endpoint` (`http://HOST:PORT` or the full `…/v1/traces`), as `service`.
  public static func start(endpoint: String, service: String = "authflow") throws(StartError) -> Handle {
    if let problem = problem(with: endpoint) { throw StartError(description: problem) }
    var configuration = OTel.Configuration.default
    configuration.serviceName = service
    var quiet = Logger(label: "authflow.otel")
    quiet.logLevel = .critical
    configuration.diagnosticLogger = .custom(quiet)
    configuration.metrics.enabled = false
    configuration.logs.enabled = false
    configuration.traces.enabled = true
    configuration.traces.exporter = .otlp
    configuration.traces.otlpExporter.protocol = .httpProtobuf
    configuration.traces.otlpExporter.endpoint = tracesURL(endpoint)
    configuration.traces.otlpExporter.timeout = .seconds(10)
    configuration.traces.sampler = .alwaysOn
    let backend: (factory: any Tracer, service: any Service)
    do {
      let made = try OTel.makeTracingBackend(configuration: configuration)
      backend = (made.factory, made.service)
    } catch {
      throw StartError(description: "the OTLP exporter did not start: \(error)")
    }
    var logger = Logger(label: "authflow.otel.group")
    logger.logLevel = .critical
    let group = ServiceGroup(services: [backend.service], logger: logger)
    let task = Task { try await group.run() }
    return Handle(tracer: backend.factory, group: group, task: task)
  }
}
