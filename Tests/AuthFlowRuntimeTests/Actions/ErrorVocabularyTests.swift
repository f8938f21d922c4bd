import AuthFlowRuntime
import Foundation
import Testing

/// The error codes the actions declare (docs/errors.md) cover every code a tenant can answer with:
/// each code the mock tenant's sources can send and each code the endpoint sections of
/// docs/protocol.md name is declared by some action or listed in ``excluded`` with the reason no
/// step sees it as its `error.code`. A new code in the mock or in docs/protocol.md fails here until
/// it is one or the other.
@Suite("The error vocabulary covers the mock and docs/protocol.md")
struct ErrorVocabularyTests {
  /// Every code some action declares.
  static let declared = Set(ActionRegistry.all.flatMap { $0.traits.errors.map(\.code) })

  /// Codes no step's `error.code` holds, each with the reason.
  static let excluded: [String: String] = [
    "bad.authParams":
      "passwordless_start never sends `authParams` (Auth0.swift v2/v3 do not, docs/protocol.md §4.3)",
    "bad.client_id": "every action sends the client's client_id; a profile without one fails the step before the call",
    "invalid_binding_message": "CIBA's /bc-authorize, which no action calls; an `http` step reads it as `body.error`",
    "invalid_client_metadata": "dynamic registration (/oidc/register), which no action calls; an `http` step reads it",
    "invalid_query_string": "Management API paging; org_invitation's list sends no query, an `http` step reads it",
    "invalid_redirect_uri": "dynamic registration (/oidc/register), which no action calls; an `http` step reads it",
    "invalid_request_uri": "PAR's request_uri at /authorize; no action pushes authorization requests",
    "invalid_ticket": "the password-reset ticket page, a form no action posts; it shows as the page's error",
    "key_generation_failed":
      "the mock's control API (/__mock/keys, /__mock/sign): mock_sign fails the step (flow) instead",
    "missing_authentication": "Management API without a token; management_users and org_invitation always send one",
    "request_too_large":
      "the mock's 413 past its request-size limit; authflow's requests stay below it (an `http` step reads it)",
    "requires_validation":
      "the legacy docs' typo for `requires_verification` (docs/protocol.md §9), which real tenants send",
    "too_many_logins": "only /oauth/ro (Lock v1's legacy login), which no action calls",
    "unknown_user_id": "CIBA's /bc-authorize, which no action calls; an `http` step reads it as `body.error`",
    "use_dpop_nonce": "DPoP only; authflow sends no DPoP proofs",
  ]

  /// The codes the endpoint sections of docs/protocol.md (docs/protocol.md §2 to §10) name, by
  /// section number: its `{"error":…}` and legacy `{"code":…}` bodies, its error tables and lists.
  /// ``protocolListIsComplete()`` checks this list against the document.
  static let protocolCodes: [String: String] = [
    "login_required": "2.2", "consent_required": "2.2", "interaction_required": "2.2", "access_denied": "2.2, 3.7",
    "invalid_request": "2.2, 3.7, 4.5, 4.7", "unauthorized": "2.2, 3.7, 4.1, 4.6, 9",
    "mfa_required": "3.6", "a0.mfa_required": "3.6", "unsupported_challenge_type": "3.6",
    "association_required": "3.6", "authorization_pending": "3.6", "slow_down": "3.6", "invalid_grant": "3.6, 3.7",
    "expired_token": "3.6", "a0.mfa_registration_required": "3.6", "invalid_scope": "3.7", "invalid_client": "3.7",
    "unauthorized_client": "3.7", "requires_verification": "3.7, 9", "password_leaked": "3.7, 9",
    "too_many_attempts": "3.7, 9", "too_many_requests": "3.7, 9", "use_dpop_nonce": "3.7",
    "unsupported_grant_type": "3.7", "unsupported_response_type": "3.7", "invalid_user_password": "3.7, 10",
    "user_exists": "4.1", "invalid_signup": "4.1", "username_exists": "4.1", "invalid_password": "4.1",
    "password_dictionary_error": "4.1", "password_no_user_info_error": "4.1", "bad.tenant": "4.3",
    "bad.client_id": "4.3", "bad.connection": "4.3", "bad.authParams": "4.3", "bad.request": "4.3",
    "bad.phone_number": "4.3", "sms_provider_error": "4.3", "a0.sdk.internal_error.plain": "1",
    "a0.sdk.internal_error.unknown": "1, 7", "requires_validation": "9", "too_many_logins": "10",
  ]

  /// `Sources/AuthFlowMockTenant`.
  static let mockSources = GeneratedFilesTests.root.appendingPathComponent("Sources/AuthFlowMockTenant")

  /// Every error code literal of the mock's error constructors: `OAuthError`/`AuthorizeError`/
  /// `LegacyError` `code:`, `LegacyError.badRequest("…"`, `ManagementError` `errorCode:`,
  /// `MyAccountError` `type:` (its 7807 code), and `"error": "…"` bodies written out.
  static func mockCodes() throws -> [String: Set<String>] {
    let patterns = [
      #/\bcode: "([a-z0-9_.]+)"/#, #/errorCode: "([a-z0-9_.]+)"/#, #/badRequest\(\s*"([a-z0-9_.]+)"/#,
      #/type: "([a-z0-9_.]+)", title:/#, #/"error": (?:\.string\()?"([a-z0-9_.]+)"/#,
    ]
    var found: [String: Set<String>] = [:]
    let enumerator = FileManager.default.enumerator(at: mockSources, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      for pattern in patterns {
        for match in text.matches(of: pattern) {
          found[String(match.output.1), default: []].insert(url.lastPathComponent)
        }
      }
    }
    return found
  }

  @Test("Every code the mock tenant can answer with is declared or excluded with a reason")
  func mockCodesAreCovered() throws {
    let codes = try Self.mockCodes()
    #expect(codes.count > 40, "the scan finds the mock's codes: \(codes.keys.sorted())")
    for (code, files) in codes.sorted(by: { $0.key < $1.key }) {
      let covered = Self.declared.contains(code) || Self.excluded[code] != nil
      #expect(
        covered,
        "the mock answers '\(code)' (\(files.sorted().joined(separator: ", "))): declare it on the actions that see it, or exclude it with the reason"
      )
    }
  }

  @Test("Every code the endpoint sections of docs/protocol.md name is declared or excluded with a reason")
  func protocolCodesAreCovered() {
    for (code, section) in Self.protocolCodes.sorted(by: { $0.key < $1.key }) {
      let covered = Self.declared.contains(code) || Self.excluded[code] != nil
      #expect(
        covered,
        "docs/protocol.md (sections \(section)) names '\(code)': declare it on the actions that see it, or exclude it with the reason"
      )
    }
  }

  @Test("An excluded code is neither declared nor forgotten by the mock and docs/protocol.md")
  func exclusionsStayNeeded() throws {
    let mock = try Self.mockCodes()
    for code in Self.excluded.keys.sorted() {
      let declared = Self.declared.contains(code)
      #expect(!declared, "'\(code)' is declared: drop its exclusion")
      let answered = mock[code] != nil || Self.protocolCodes[code] != nil
      #expect(answered, "nothing answers '\(code)' any more: drop its exclusion")
    }
  }

  @Test("An action answering with the tenant's codes also declares the ones any tenant call can get")
  func tenantCallsDeclareTheRateLimit() {
    for action in ActionRegistry.all where action.traits.errors.contains(where: { $0.origin == .tenant }) {
      let codes = Set(action.traits.errors.map(\.code))
      for code in StepErrorCode.anyTenantCall where !codes.contains(code.code) {
        Issue.record("\(action.signature.name) answers with the tenant's codes but does not declare '\(code.code)'")
      }
      #expect(codes.count == action.traits.errors.count, "\(action.signature.name) declares a code twice")
    }
  }

  /// `docs/protocol.md`.
  static let protocolFile = GeneratedFilesTests.root.appendingPathComponent("docs/protocol.md")

  /// The codes written in docs/protocol.md's sections 2 to 10 as error bodies (`"error":"…"`,
  /// `"code":"…"`), in the status rows of its error tables, in lists of codes (`- \`code\` —`)
  /// and in lines that name codes ("codes:", "Errors:", "Responds").
  static func codes(inProtocol text: String) -> Set<String> {
    guard let start = text.range(of: "\n## 2. "), let end = text.range(of: "\n## 11. ") else { return [] }
    let body = text[start.lowerBound..<end.lowerBound]
    let code = #/`([a-z][a-z0-9]*(?:[._][a-zA-Z0-9]+)+)`/#
    var found = Set<String>()
    for line in body.split(separator: "\n") {
      for match in line.matches(of: #/"(?:error|code)"\s*:\s*"([a-z][a-z0-9_.]*)"/#) {
        found.insert(String(match.output.1))
      }
      let isStatusRow = line.hasPrefix("| 4") || line.hasPrefix("| 5")
      let isCodeList = line.prefixMatch(of: #/\s*- `[a-z][a-zA-Z0-9_.]*`(?:$| —|\.|,| with)/#) != nil
      let namesCodes = line.contains("codes:") || line.contains("Errors:") || line.contains("Responds")
      guard isStatusRow || isCodeList || namesCodes else { continue }
      for match in line.matches(of: code) { found.insert(String(match.output.1)) }
    }
    return found
  }

  @Test("The docs/protocol.md codes above are all those its endpoint sections name")
  func protocolListIsComplete() throws {
    let text = try String(contentsOf: Self.protocolFile, encoding: .utf8)
    let named = Self.codes(inProtocol: text)
    #expect(named.count > 20, "the extraction finds the codes of docs/protocol.md: \(named.sorted())")
    for code in named.sorted() where Self.protocolCodes[code] == nil && !Self.notCodes.contains(code) {
      Issue.record("docs/protocol.md names '\(code)': add it to protocolCodes with its section")
    }
    for code in Self.protocolCodes.keys.sorted() {
      #expect(text.contains(code), "'\(code)' is not in docs/protocol.md")
    }
  }

  /// Backticked words in those lines that are not error codes.
  static let notCodes: Set<String> = [
    "api.access.deny",  // docs/protocol.md §2.2: the Action API that denies a login, beside `access_denied`
    "mfa_token",  // docs/protocol.md §3.7: the member that comes with `mfa_required`
  ]
}
