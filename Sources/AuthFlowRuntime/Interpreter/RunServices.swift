public import AuthFlowCore

/// The services shared by every scenario of a run: secrets, and (through the context) HTTP and
/// browsers. Created once per run.
public struct RunServices: Sendable {
  public var secrets: SecretRegistry
  /// The process environment, as `env` in expressions.
  public var environment: [String: String]
  /// A step with no `timeout` gets this one.
  public var defaultStepTimeout: Duration
  /// The cleanup phase gets this budget even after a scenario timeout or an interruption.
  public var cleanupTimeout: Duration

  public init(
    secrets: SecretRegistry, environment: [String: String] = [:], defaultStepTimeout: Duration = .seconds(60),
    cleanupTimeout: Duration = .seconds(30)
  ) {
    self.secrets = secrets
    self.environment = environment
    self.defaultStepTimeout = defaultStepTimeout
    self.cleanupTimeout = cleanupTimeout
  }
}
