import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

@testable import AuthFlowMockTenant

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The double-redeem race over real TCP: the server on 127.0.0.1 handles the requests on its
/// event loops in parallel (not interleaved on one task, as in-process), and still exactly one
/// exchange of a code wins and the reuse revokes what it issued.
@Suite struct MockStateLoopbackRaceTests {
  static let verifier = AuthorizeParameters().verifier

  /// `count` token requests with the same form body at once, over one ephemeral `URLSession`; the
  /// status and JSON body of each.
  static func race(
    _ count: Int, baseURL: String, body: String
  ) async throws -> [(status: Int, json: [String: Value])] {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let url = try #require(URL(string: baseURL + "oauth/token"))
    return try await withThrowingTaskGroup(of: (status: Int, json: [String: Value]).self) { group in
      for _ in 0..<count {
        group.addTask {
          var request = URLRequest(url: url)
          request.httpMethod = "POST"
          request.httpBody = Data(body.utf8)
          request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
          let (data, response) = try await session.data(for: request)
          let status = (response as? HTTPURLResponse)?.statusCode ?? 0
          return (status, (try? Value(json: data))?.objectValue ?? [:])
        }
      }
      var answers: [(status: Int, json: [String: Value])] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
  }

  static func form(_ fields: [(String, String)]) -> String {
    fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  @Test func aCodeRedeemedByManyAtOnceOverLoopbackIssuesOnceAndRevokesTheFamily() async throws {
    try await MockHarness.withServer(exercise)
  }

  private func exercise(_ handle: MockTenantServer.Handle) async throws {
    #expect(handle.baseURL.hasPrefix("http://127.0.0.1:"))
    // A code as `/authorize` issues it after Alice's login (the login itself is covered elsewhere).
    let code = RandomToken.make(bytes: 32)
    let request = AuthorizeRequest(
      clientID: "native-client-id", redirectURI: MockHarness.nativeCallback, responseType: "code",
      responseMode: nil, state: nil, nonce: nil, scope: ["openid", "offline_access"], audience: nil,
      codeChallenge: PKCE.challenge(for: Self.verifier), codeChallengeMethod: .s256, organization: nil, maxAge: nil,
      connection: nil, loginHint: nil, invitation: nil)
    let now = handle.tenant.clock.seconds
    handle.tenant.transact {
      $0.codes.insert(
        IssuedCode(request: request, userID: "auth0|alice0001", authTime: now), key: code, expiresAt: now + 60)
    }
    let racers = 12
    let answers = try await Self.race(
      racers, baseURL: handle.baseURL,
      body: Self.form([
        ("grant_type", "authorization_code"), ("client_id", "native-client-id"), ("code", code),
        ("code_verifier", Self.verifier), ("redirect_uri", MockHarness.nativeCallback),
      ]))
    let winners = answers.filter { $0.status == 200 }
    #expect(winners.count == 1, "\(answers.map(\.status))")
    #expect(answers.filter { $0.status == 403 }.count == racers - 1)
    let refreshToken = try #require(winners.first?.json["refresh_token"]?.stringValue)
    let refreshed = try await Self.race(
      1, baseURL: handle.baseURL,
      body: Self.form([
        ("grant_type", "refresh_token"), ("client_id", "native-client-id"), ("refresh_token", refreshToken),
      ]))
    #expect(refreshed.first?.status == 403)
    #expect(refreshed.first?.json["error_description"] == .string("Unknown or invalid refresh token."))
  }
}
