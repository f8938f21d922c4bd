public import AuthFlowCore

/// What `authflow doctor` found about a tenant: checks grouped by section, each passed, failed
/// (with what to fix) or informational.
public struct DoctorReport: Sendable {
  /// One line of the report.
  public struct Check: Sendable, Equatable {
    public enum Outcome: String, Sendable {
      case passed, failed, info
    }

    public var section: Section
    public var outcome: Outcome
    public var message: String
    /// What to change, for a failed check.
    public var fix: String?

    public init(_ section: Section, _ outcome: Outcome, _ message: String, fix: String? = nil) {
      self.section = section
      self.outcome = outcome
      self.message = message
      self.fix = fix
    }
  }

  /// The sections, in report order.
  public enum Section: String, Sendable, CaseIterable {
    case discovery = "Discovery"
    case keys = "Keys"
    case clients = "Clients"
    case loginPages = "Login pages"
    case capabilities = "Capabilities"
    case inbox = "Inbox"
  }

  public var tenant: String
  public var kind: TenantContext.Kind
  /// Where the tenant is; nil when it could not be resolved.
  public var baseURL: String?
  /// The issuer exactly as the discovery document names it (no slash added or removed); nil
  /// when no document was read.
  public var issuer: String?
  public var checks: [Check]
  /// The tenant could not be reached or answered something unusable (discovery, JWKS).
  public var environmentFailure: Bool

  public init(
    tenant: String, kind: TenantContext.Kind, baseURL: String?, checks: [Check] = [], environmentFailure: Bool = false
  ) {
    self.tenant = tenant
    self.kind = kind
    self.baseURL = baseURL
    self.checks = checks
    self.environmentFailure = environmentFailure
  }

  /// The failed checks.
  public var failures: [Check] { checks.filter { $0.outcome == .failed } }

  /// 3 when the tenant is unreachable or misbehaving, 1 when a check failed, else 0.
  public var exitCode: AuthFlowExitCode {
    if environmentFailure { return .environment }
    return failures.isEmpty ? .success : .failure
  }

  /// The check list: `✓` passed, `✗` failed (with `fix:` below), `·` information.
  public func render() -> String {
    let place = issuer.map { ", issuer \($0)" } ?? baseURL.map { " at \($0)" } ?? ""
    var lines = ["Tenant '\(tenant)' (kind \(kind.rawValue))" + place]
    for section in Section.allCases {
      let items = checks.filter { $0.section == section }
      guard !items.isEmpty else { continue }
      lines.append("")
      lines.append(section.rawValue)
      for check in items {
        let mark =
          switch check.outcome {
          case .passed: "✓"
          case .failed: "✗"
          case .info: "·"
          }
        lines.append("  \(mark) \(check.message)")
        if let fix = check.fix { lines.append("      fix: \(fix)") }
      }
    }
    lines.append("")
    lines.append(summary)
    return lines.joined(separator: "\n")
  }

  private var summary: String {
    let count = failures.count
    if environmentFailure {
      return "The tenant could not be reached or misbehaved (\(count) problem\(count == 1 ? "" : "s")): exit 3"
    }
    if count == 0 { return "No problems found: exit 0" }
    return "\(count) problem\(count == 1 ? "" : "s") found: exit 1"
  }
}
