import AuthFlowCore
public import AuthFlowHTTP
import AuthFlowJOSE
public import AuthFlowScenario
import Foundation

/// `authflow doctor`: a preflight of a resolved tenant. Discovery reachable and consistent (the
/// issuer it names is the configured one), the JWKS fetched and parsed, each client profile
/// usable (redirect URI, grants, secret), and each capability with its evidence. Secrets are
/// never shown: a client secret is reported as set or missing.
public struct TenantDoctor: Sendable {
  public var transport: any HTTPTransport
  /// `--probe`: try flows to learn the capabilities discovery cannot state (``CapabilityProbe``),
  /// and send the inbox a test message.
  public var probe: CapabilityProbe?
  /// What checks an IMAP inbox and sends a probe over SMTP (the run's own ``InboxHost``).
  public var inboxHost: (any InboxHost)?

  public init(transport: any HTTPTransport, probe: CapabilityProbe? = nil, inboxHost: (any InboxHost)? = nil) {
    self.transport = transport
    self.probe = probe
    self.inboxHost = inboxHost
  }

  /// Resolves `profile` (a discovered issuer that differs is reported, not fatal) and examines
  /// it. A provider that cannot be reached is a report with exit 3; an invalid profile is thrown.
  public func diagnose(
    _ profile: TenantProfile, resolver: TenantResolver
  ) async throws(TenantResolutionError) -> DoctorReport {
    var resolver = resolver
    resolver.verifiesIssuer = false
    resolver.transport = transport
    let resolved: ResolvedTenant
    do {
      resolved = try await resolver.resolve(profile)
    } catch {
      guard error.isEnvironment else { throw error }
      let kind = TenantContext.Kind(rawValue: profile.kind.rawValue) ?? .oidc
      return DoctorReport(
        tenant: profile.name.value, kind: kind, baseURL: nil,
        checks: [.init(.discovery, .failed, resolver.secrets.scrub(error.message), fix: Messages.discoveryFix)],
        environmentFailure: true)
    }
    var report = await examine(resolved.context, configuredIssuer: resolved.configuredIssuer)
    if let probe, !report.environmentFailure {
      report.checks += CapabilityProbe.checks(await probe.run(resolved.context), tenant: resolved.context)
    }
    if let inbox = resolved.context.inbox {
      let checked = await InboxDoctor(transport: transport, host: inboxHost).checks(
        inbox, receiverSMTPPort: resolved.receiver?.smtpPort, probe: probe != nil)
      report.checks += checked.checks
      report.environmentFailure = report.environmentFailure || checked.environmentFailure
    }
    await resolved.stop()
    return report
  }

  /// The checks of `tenant`; `configuredIssuer` is the issuer (or base URL) the profile names.
  public func examine(_ tenant: TenantContext, configuredIssuer: String?) async -> DoctorReport {
    var report = DoctorReport(tenant: tenant.name, kind: tenant.kind, baseURL: tenant.baseURL)
    let metadata = await discovery(tenant, configuredIssuer: configuredIssuer, into: &report)
    report.issuer = metadata?.issuer
    await keys(jwksURI: metadata?.jwksURI ?? tenant.endpoints.jwks, into: &report)
    clients(tenant, metadata: metadata, into: &report)
    let login = await LoginPageProbe(transport: transport).checks(tenant)
    report.checks += login.checks
    report.environmentFailure = report.environmentFailure || login.environmentFailure
    for capability in tenant.capabilities.sorted() {
      let evidence = tenant.capabilityEvidence[capability] ?? "declared"
      report.checks.append(.init(.capabilities, .passed, "\(capability) — \(evidence)"))
    }
    for (capability, absence) in tenant.capabilityAbsence.sorted(by: { $0.key < $1.key })
    where !tenant.capabilities.contains(capability) {
      report.checks.append(.init(.capabilities, .info, "no \(capability) — \(absence)"))
    }
    return report
  }

  /// The discovery document (the one read at resolution, or fetched now for the mock) and the
  /// issuer check.
  private func discovery(
    _ tenant: TenantContext, configuredIssuer: String?, into report: inout DoctorReport
  ) async -> ProviderMetadata? {
    let metadata: ProviderMetadata
    if let known = tenant.provider {
      metadata = known
    } else {
      do {
        metadata = try await ProviderDiscovery.fetch(issuer: tenant.issuer, transport: transport)
      } catch {
        report.checks.append(.init(.discovery, .failed, error.message, fix: Messages.discoveryFix))
        report.environmentFailure = true
        return nil
      }
    }
    let url = ProviderMetadata.discoveryURL(issuer: metadata.issuer)
    report.checks.append(.init(.discovery, .passed, "\(url) serves a discovery document"))
    let expected = configuredIssuer ?? tenant.issuer
    if metadata.issuer == expected {
      report.checks.append(.init(.discovery, .passed, "issuer \(metadata.issuer) is the configured one"))
    } else {
      report.checks.append(
        .init(
          .discovery, .failed, "issuer \(metadata.issuer) differs from the configured \(expected)",
          fix: ProviderDiscovery.Messages.issuerMismatch(configured: expected, discovered: metadata.issuer)))
    }
    let endpoints: [(String, String?, String?, Bool)] = [
      ("authorization_endpoint", metadata.authorizationEndpoint, tenant.endpoints.authorization, true),
      ("token_endpoint", metadata.tokenEndpoint, tenant.endpoints.token, true),
      ("jwks_uri", metadata.jwksURI, tenant.endpoints.jwks, true),
      ("userinfo_endpoint", metadata.userinfoEndpoint, tenant.endpoints.userinfo, false),
      ("revocation_endpoint", metadata.revocationEndpoint, tenant.endpoints.revocation, false),
      ("end_session_endpoint", metadata.endSessionEndpoint, tenant.endpoints.endSession, false),
    ]
    for (member, discovered, resolved, required) in endpoints {
      if let url = discovered {
        report.checks.append(.init(.discovery, .passed, "\(member): \(SensitiveData.maskURL(url))"))
      } else if let url = resolved {
        // Not in discovery, but the profile names it (`settings.endpoints`).
        report.checks.append(
          .init(.discovery, .passed, "\(member): \(SensitiveData.maskURL(url)) (from the profile's settings.endpoints)")
        )
      } else if required {
        report.checks.append(.init(.discovery, .failed, "no \(member)", fix: Messages.requiredEndpoint(member)))
      } else {
        report.checks.append(.init(.discovery, .info, "no \(member) (the capabilities that need it are absent)"))
      }
    }
    return metadata
  }

  /// The JWKS: fetched, parsed, and holding a key ID tokens can be verified with.
  private func keys(jwksURI: String?, into report: inout DoctorReport) async {
    guard let jwksURI else { return }
    let response: HTTPResponse
    do {
      response = try await transport.send(HTTPRequest(method: .get, url: jwksURI))
    } catch {
      report.checks.append(
        .init(.keys, .failed, Messages.jwksUnreachable(jwksURI, error.message), fix: Messages.discoveryFix))
      report.environmentFailure = true
      return
    }
    guard response.status == 200, let set = try? JSONDecoder().decode(JWKSet.self, from: Data(response.body)) else {
      report.checks.append(
        .init(.keys, .failed, Messages.jwksUnusable(jwksURI, response.status), fix: Messages.jwksFix))
      report.environmentFailure = true
      return
    }
    let described = set.keys.map { key in
      "\(key.kid ?? "no kid") \(key.kty) \(key.alg ?? "no alg")\(key.use.map { " \($0)" } ?? "")"
    }
    let count = "\(set.keys.count) key\(set.keys.count == 1 ? "" : "s")"
    let summary =
      "\(SensitiveData.maskURL(jwksURI)): \(count)"
      + (described.isEmpty ? "" : " (\(described.joined(separator: ", ")))")
    let signing = set.keys.contains { $0.kty == "RSA" && ($0.use ?? "sig") == "sig" && $0.n != nil && $0.e != nil }
    if signing {
      report.checks.append(.init(.keys, .passed, summary))
    } else {
      report.checks.append(.init(.keys, .failed, summary, fix: Messages.noSigningKey))
    }
  }

  private func clients(_ tenant: TenantContext, metadata: ProviderMetadata?, into report: inout DoctorReport) {
    if tenant.clients.isEmpty {
      report.checks.append(.init(.clients, .failed, "no client profiles", fix: Messages.noClients))
    }
    for (name, client) in tenant.clients.sorted(by: { $0.key < $1.key }) {
      for check in ClientProfileCheck(name: name, client: ClientProfile(client), tenant: tenant, metadata: metadata)
        .checks()
      {
        report.checks.append(check)
      }
    }
  }

  /// The doctor's messages.
  enum Messages {
    static let discoveryFix =
      "check the tenant's `issuer`/`domain` and that the provider is running and reachable from this machine"
    static let jwksFix = "the provider must serve a JWK set (RFC 7517) at its jwks_uri"
    static let noSigningKey =
      "publish an RSA signing key (kty RSA, use sig or absent): ID tokens cannot be verified without one"
    static let noClients = "add `clients:` to the tenant profile (client_id, redirect_uri, client_secret)"

    static func requiredEndpoint(_ member: String) -> String {
      "the provider's discovery document must name `\(member)` for authflow's flows"
    }

    static func jwksUnreachable(_ url: String, _ detail: String) -> String {
      "could not fetch the JWKS \(SensitiveData.maskURL(url)): \(detail)"
    }

    static func jwksUnusable(_ url: String, _ status: Int) -> String {
      "the JWKS \(SensitiveData.maskURL(url)) answered HTTP \(status) without a JWK set"
    }
  }
}
