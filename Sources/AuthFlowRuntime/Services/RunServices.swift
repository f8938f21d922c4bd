public import AuthFlowCore
public import AuthFlowHTTP
public import AuthFlowResults

/// The services shared by every scenario of a run: secrets, and (through the context) HTTP and
/// browsers. Created once per run.
public struct RunServices: Sendable {
  public var secrets: SecretRegistry
  /// The one door to the network (live client, possibly wrapped for tracing and rate limits),
  /// registering the secrets every response issues (``SecretLearningTransport``).
  public var transport: any HTTPTransport
  /// The process environment, as `env` in expressions.
  public var environment: [String: String] {
    didSet { environmentValue = Self.environmentValue(environment, secrets: secrets) }
  }
  /// `env` as expressions see it, built once per run rather than once per scenario.
  public private(set) var environmentValue: Value
  /// A step with no `timeout` gets this one.
  public var defaultStepTimeout: Duration
  /// The cleanup phase gets this budget even after a scenario timeout or an interruption.
  public var cleanupTimeout: Duration
  /// The tenants' signing keys, fetched once per run (ID-token validation in any action).
  public var jwks: JWKSCache
  /// True when each step keeps its HTTP exchanges (``StepReport/exchanges``): off by default (no
  /// formatting cost, as in `authflow bench`); the CLI turns it on when a reporter shows step
  /// results (JSON, HTML).
  public var recordsExchanges = false
  /// The run's headless chromium (`browser: chromium`), started on first use; whoever made the
  /// services stops it with ``ChromiumHost/shutdown()`` when the run ends.
  public var chromium: ChromiumHost
  /// What stopped the run, recorded (by the CLI's signal handling, `--run-timeout`) before the run
  /// is cancelled: the reasons of interrupted scenarios and steps name it.
  public var stops = StopRecord()

  public init(
    secrets: SecretRegistry, transport: any HTTPTransport, environment: [String: String] = [:],
    defaultStepTimeout: Duration = .seconds(60),
    cleanupTimeout: Duration = .seconds(30), jwks: JWKSCache = JWKSCache(), chromium: ChromiumHost? = nil
  ) {
    self.jwks = jwks
    // What chromium fetched teaches the registry its secrets, as the transport's responses do.
    self.chromium = chromium ?? ChromiumHost(observe: { SecretExtraction.register($0, in: secrets) })
    self.secrets = secrets
    // Every response registers the secrets it issues before any step sees it; then the step's
    // exchange log (when one is bound) records the exchange.
    self.transport = StepExchangeRecorder(
      wrapping: SecretLearningTransport(wrapping: transport, secrets: secrets), revealSecrets: secrets.revealSecrets)
    self.environment = environment
    self.environmentValue = Self.environmentValue(environment, secrets: secrets)
    self.defaultStepTimeout = defaultStepTimeout
    self.cleanupTimeout = cleanupTimeout
  }

  /// Words that make an environment variable a secret: `AUTH0_CLIENT_SECRET`, `ALICE_PASSWORD`,
  /// `GITHUB_TOKEN`, `SIGNING_KEY`, … Their values are secrets in expressions and are scrubbed
  /// from every output, wherever they end up.
  static let secretNameParts = ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "KEY", "CREDENTIAL", "PRIVATE", "PIN"]

  static func isSecretName(_ name: String) -> Bool {
    let parts = name.uppercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    return parts.contains { part in secretNameParts.contains(String(part)) }
  }

  static func environmentValue(_ environment: [String: String], secrets: SecretRegistry) -> Value {
    var members: [String: Value] = [:]
    for (name, value) in environment {
      if isSecretName(name) {
        secrets.register(value)
        members[name] = .secret(.string(value))
      } else {
        members[name] = .string(value)
      }
    }
    return .object(members)
  }
}
