import AuthFlowCore
import AuthFlowHTTP
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowMonitor

/// The tenant facts a monitor exports beside the flows.
@Suite struct TenantWatchTests {
  static func token(exp: Int) throws -> Value {
    func part(_ json: String) -> String {
      Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
    return .jwt(try #require(JWTValue(raw: part(#"{"alg":"RS256"}"#) + "." + part("{\"exp\":\(exp)}") + ".c2ln")))
  }

  static func report(_ results: [Value]) -> ScenarioReport {
    var report = ScenarioReport(
      name: "s", file: "s.yaml", location: SourceLocation(file: "s.yaml", line: 1, column: 1), tags: [],
      status: .passed, duration: .seconds(1), steps: [])
    for (index, result) in results.enumerated() {
      var step = StepReport(
        id: "s\(index)", name: "s\(index)", action: "login", phase: .main,
        location: SourceLocation(file: "s.yaml", line: 1, column: 1),
        status: .passed, duration: .seconds(1))
      step.result = result
      report.steps.append(step)
    }
    return report
  }

  /// The newest of each kind: a JWT's `exp`, an opaque access token's `expires_in` from the end of
  /// the run; nested and secret-wrapped values are read too.
  @Test func theNewestExpiryOfEachKindIsFound() throws {
    let finished = Date(timeIntervalSince1970: 1_000_000)
    let found = TenantWatch.expiries(
      in: Self.report([
        ["id_token": try Self.token(exp: 1_000_100), "access_token": .secret(.string("opaque")), "expires_in": 600],
        ["tokens": ["id_token": .secret(try Self.token(exp: 1_000_500))]],
        ["access_token": try Self.token(exp: 1_000_050)],
      ]), finishedAt: finished)
    #expect(found["id"] == Date(timeIntervalSince1970: 1_000_500))
    #expect(found["access"] == Date(timeIntervalSince1970: 1_000_600))
  }

  @Test func aReportWithoutTokensHasNone() {
    #expect(TenantWatch.expiries(in: Self.report([["status": 200]]), finishedAt: Date()).isEmpty)
  }

  /// The budget is the least a tenant's open windows leave, less what is on its way.
  @Test func thePacerTellsTheBudgetLeft() throws {
    let pacer = RateLimitPacer()
    let now = Date()
    let reset = String(Int(now.timeIntervalSince1970) + 60)
    for (path, remaining) in [("/oauth/token", "40"), ("/userinfo", "7")] {
      let key = RateLimitPacer.BucketKey(host: "t.example.com", path: path)
      _ = pacer.admit(key, now: now)
      pacer.learn(
        key,
        from: HTTPResponse(
          status: 200,
          headers: ["X-RateLimit-Limit": "100", "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": reset],
          body: [], url: "https://t.example.com" + path), now: now)
    }
    let budget = try #require(pacer.budget(host: "t.example.com", now: now))
    #expect(budget.remaining == 7)
    #expect(budget.limit == 100)
    #expect(pacer.budget(host: "other.example.com", now: now) == nil)
    // Once the window is over, nothing is known of the next.
    #expect(pacer.budget(host: "t.example.com", now: now.addingTimeInterval(120)) == nil)
  }
}
