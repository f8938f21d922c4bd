import AuthFlowCore
public import AuthFlowYAML

/// `authflow.yaml`: the tenants a scenario folder can run against, and the default one.
public struct ProjectConfig: Sendable {
  /// The file name looked for at the root of a scenario folder.
  public static let fileName = "authflow.yaml"
  /// The tenant used when neither `default_tenant` nor `--tenant` names one: the embedded mock.
  public static let embeddedTenantName = "mock"

  /// The path it was read from; empty for the built-in configuration.
  public var file: String
  /// `default_tenant:`, when given.
  public var defaultTenant: Located<String>?
  /// The tenants, in file order.
  public var tenants: [TenantProfile]
  /// `monitor:`: how often `authflow monitor` runs each scenario (its defaults when absent).
  public var monitor = MonitorProfile()

  public init(file: String, defaultTenant: Located<String>? = nil, tenants: [TenantProfile] = []) {
    self.file = file
    self.defaultTenant = defaultTenant
    self.tenants = tenants
  }

  /// The configuration without a file: the embedded mock tenant only.
  public static var embedded: ProjectConfig {
    let location = SourceLocation(file: "<built-in>", line: 1, column: 1)
    return ProjectConfig(
      file: "",
      tenants: [TenantProfile(name: Located(embeddedTenantName, at: location), kind: .mock, location: location)])
  }

  /// `default_tenant`, else `mock`.
  public var defaultTenantName: String { defaultTenant?.value ?? Self.embeddedTenantName }

  /// True when naming no tenant would fall back to the embedded mock though the file defines
  /// tenants, none of them `mock`, and no `default_tenant`: `run` and `doctor` refuse that (exit
  /// 2) rather than test the mock in place of the tenants the file was written for.
  public var wouldPassOverItsTenants: Bool {
    defaultTenant == nil && !file.isEmpty && !tenants.isEmpty
      && !tenants.contains { $0.name.value == Self.embeddedTenantName }
  }

  /// The tenant `name`; `mock` is always available (the embedded mock) unless the file redefines it.
  public func tenant(named name: String) -> TenantProfile? {
    if let tenant = tenants.first(where: { $0.name.value == name }) { return tenant }
    return name == Self.embeddedTenantName ? Self.embedded.tenants.first : nil
  }
}
