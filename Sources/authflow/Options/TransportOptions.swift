import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP

/// The transport's limits as flags (docs/running.md, "Transport limits"), each checked against
/// its documented range.
struct TransportOptions: ParsableArguments {
  @Option(name: .customLong("connect-timeout"), help: "Time to connect to a tenant, TLS included (100ms–5m).")
  var connectTimeout: String = "5s"

  @Option(
    name: .customLong("request-timeout"),
    help: "Deadline of one request to a tenant, response body and retries included (100ms–1h).")
  var requestTimeout: String = "30s"

  @Option(
    name: .customLong("max-response-size"),
    help: "Largest response body accepted from a tenant, in bytes (1024–1073741824).")
  var maxResponseSize: Int = 10 * 1024 * 1024

  func validate() throws {
    _ = try parsed()
  }

  /// The configuration, or a `ValidationError` naming the flag and its range.
  func parsed() throws -> LiveTransport.Configuration {
    var configuration = LiveTransport.Configuration()
    configuration.connectTimeout = try Self.duration(
      connectTimeout, flag: "--connect-timeout", range: LiveTransport.Configuration.connectTimeoutRange)
    configuration.requestTimeout = try Self.duration(
      requestTimeout, flag: "--request-timeout", range: LiveTransport.Configuration.requestTimeoutRange)
    let sizes = LiveTransport.Configuration.maxBodySizeRange
    guard sizes.contains(maxResponseSize) else {
      throw ValidationError(Messages.outOfRange("--max-response-size", "\(maxResponseSize)", "1024", "1073741824"))
    }
    configuration.maxBodySize = maxResponseSize
    // A tenant that keeps answering slowly should not be cut by the silence timeout before the
    // exchange deadline.
    configuration.readTimeout = configuration.requestTimeout
    return configuration
  }

  private static func duration(_ text: String, flag: String, range: ClosedRange<Duration>) throws -> Duration {
    guard let value = DurationText.parse(text) else {
      throw ValidationError(Messages.notDuration(flag, text))
    }
    guard range.contains(value) else {
      throw ValidationError(
        Messages.outOfRange(
          flag, text, DurationText.format(range.lowerBound), DurationText.format(range.upperBound)))
    }
    return value
  }

  enum Messages {
    static func notDuration(_ flag: String, _ text: String) -> String {
      "\(flag) must be a duration such as 10s or 1m (got '\(text)')"
    }

    static func outOfRange(_ flag: String, _ text: String, _ low: String, _ high: String) -> String {
      "\(flag) must be between \(low) and \(high) (got \(text))"
    }
  }
}
