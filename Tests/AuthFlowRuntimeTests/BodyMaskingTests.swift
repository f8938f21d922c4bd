import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRuntime
import Foundation
import Synchronization
import Testing

/// Issue 16 item 6: a provider that prints its redirect URL in a body — HTML with `&amp;`, a
/// script with `\u0026`, numeric entities, JSON, text, a form — must not leak the code in
/// `--trace` or any reporter, and a value learned anywhere (a password the profile declares) is
/// masked in all its encodings, HTML entities included. Against a loopback provider whose
/// "continue to your app" page is the only place the code appears.
@Suite("Masking covers the bodies of any provider")
struct BodyMaskingTests {
  static func profile(base: String) -> String {
    #"""
    tenants:
      op:
        kind: oidc
        issuer: \#(base)/o
        clients:
          rp: { client_id: rp-client, client_secret: "rp-secret-Zq9+/x", redirect_uri: "https://rp.example.com/callback" }
        users:
          alice: { email: alice@example.com, password: "P'a\"s<s>&w0rd" }
    """#
  }

  static let scenario = """
    scenario: A provider that prints its redirect in the body
    client: rp
    steps:
      - id: login
        web_auth: {}
      - id: again
        needs: []
        http:
          url: "${{ tenant.endpoints.authorization }}?client_id=rp-client&redirect_uri=https://rp.example.com/callback&code_challenge=abc&state=s-1"
          follow_redirects: false
        expect:
          body: { contains: "not in this body" }
      - id: echo
        needs: []
        http:
          url: ${{ tenant.issuer }}/echo
          method: POST
          json: { text: "${{ tenant.users.alice.password }}" }
        expect:
          body: { contains: "not in this page" }
    """

  struct Outputs {
    var texts: [String]
    var secrets: [String]
    var report: RunReport
  }

  /// Runs the scenario as `authflow run --trace` does (``SessionHarness``), every reporter
  /// writing to strings.
  static func run(_ configuration: LoopbackProvider.Configuration, reveal: Bool = false) async throws -> Outputs {
    try await LoopbackProvider.with(configuration) { provider, base in
      let run = try await SessionHarness.run(
        scenarios: [("masking.yaml", Self.scenario)], project: Self.profile(base: base),
        reporters: ["console", "junit:out.xml", "json:out.json", "github"], reveal: reveal
      ) { configuration in
        configuration.jobs = 1
        configuration.tenants = ["op"]
      }
      let report = try #require(run.outcome.report, "\(run.console)")
      return Outputs(
        texts: run.texts, secrets: provider.issued + ["rp-secret-Zq9+/x", #"P'a"s<s>&w0rd"#], report: report)
    }
  }

  /// The forms a secret is searched for, computed here independently of authflow's registry.
  static func forms(of secret: String) -> Set<String> {
    let data = Data(secret.utf8)
    let base64 = data.base64EncodedString()
    let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    let percent = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
    let json = secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    let html = secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "'", with: "&#x27;")
    return [
      secret, percent, percent.replacingOccurrences(of: "%20", with: "+"), json,
      json.replacingOccurrences(of: "/", with: "\\/"), html, base64, base64.replacingOccurrences(of: "=", with: ""),
      base64URL,
    ]
  }

  static func leaks(_ outputs: Outputs) -> [String] {
    var leaks: [String] = []
    for secret in outputs.secrets {
      for form in forms(of: secret) where outputs.texts.contains(where: { $0.contains(form) }) {
        leaks.append("\(secret.prefix(4))… as \(form == secret ? "raw" : form)")
      }
    }
    return leaks
  }

  @Test(
    "a code printed only in the body of the provider's page is masked everywhere",
    arguments: LoopbackProvider.Echo.allCases.filter { $0 != .none })
  func codeInBodyOnly(echo: LoopbackProvider.Echo) async throws {
    let outputs = try await Self.run(.init(echo: echo, redirects: false))
    let scenario = try #require(outputs.report.scenarios.first)
    // The page was read and quoted: the login stopped on it, the expectations failed on it.
    #expect(scenario.status == .failed)
    #expect(outputs.secrets.count >= 4, "the provider issued \(outputs.secrets.count - 2) codes")
    let leaks = Self.leaks(outputs)
    #expect(leaks.isEmpty, "\(echo): \(leaks.joined(separator: ", "))")
  }

  @Test("a 302 whose body repeats the callback, then a completed login: nothing issued leaks")
  func redirectWithBody() async throws {
    let outputs = try await Self.run(.init(echo: .html, redirects: true))
    let login = try #require(outputs.report.scenarios.first?.steps.first { $0.id == "login" })
    #expect(login.status == .passed, "\(login.problems.map(\.message))")
    #expect(outputs.secrets.count >= 5, "codes, an access token and an ID token")
    let leaks = Self.leaks(outputs)
    #expect(leaks.isEmpty, "\(leaks.joined(separator: ", "))")
  }

  @Test("with --show-secrets the same values do appear: the scan can fail")
  func showSecretsReveals() async throws {
    let outputs = try await Self.run(.init(echo: .numericEntities, redirects: false), reveal: true)
    let all = outputs.texts.joined(separator: "\n")
    let code = try #require(outputs.secrets.first)
    #expect(Self.forms(of: code).contains { all.contains($0) })
    #expect(all.contains("P&#x27;a&quot;s&lt;s&gt;&amp;w0rd"), "the page echoed the password HTML-escaped")
  }
}
