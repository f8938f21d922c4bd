public import AuthFlowScenario

/// Every action, sorted by name: the one list the parser, the schema, the docs and the
/// interpreter read.
public enum ActionRegistry {
  public static let all: [any Action.Type] = [
    APICredentialsAction.self,
    AssertAction.self,
    CredentialsCheckAction.self,
    CredentialsClearAction.self,
    CredentialsGetAction.self,
    CredentialsRenewAction.self,
    CredentialsStoreAction.self,
    CredentialsUserAction.self,
    DeviceActivateAction.self,
    DeviceAuthorizationAction.self,
    DeviceTokenAction.self,
    HTTPAction.self,
    ManagementUsersAction.self,
    PasskeyLoginAction.self,
    PasskeySignupAction.self,
    LockParametersAction.self,
    LogoutAction.self,
    MockSignAction.self,
    MyAccountAction.self,
    MyAccountPasskeyAction.self,
    ServerConfigurationAction.self,
    SetAction.self,
    SignupAction.self,
    SkipAction.self,
    ValidateIDTokenAction.self,
    LoginAction.self,
    MFAChallengeAction.self,
    MFAVerifyAction.self,
    MockClockAction.self,
    MockFaultAction.self,
    OrgInvitationAction.self,
    OutboxAction.self,
    PasswordlessLoginAction.self,
    PasswordlessStartAction.self,
    RenewAction.self,
    ReviewAction.self,
    RevokeAction.self,
    SSOCredentialsAction.self,
    TokenAction.self,
    TokenExchangeAction.self,
    UserInfoAction.self,
    WaitAction.self,
    WebAuthAction.self,
  ].sorted { $0.signature.name < $1.signature.name }

  private static let byName: [String: any Action.Type] = Dictionary(
    all.map { ($0.signature.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// The action named `name`.
  public static func action(named name: String) -> (any Action.Type)? { byName[name] }

  /// The catalog the scenario parser validates steps against.
  public static let catalog = ActionCatalog(all.map { $0.signature })
}
