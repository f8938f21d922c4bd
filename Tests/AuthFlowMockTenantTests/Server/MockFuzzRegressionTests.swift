import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// Input that schemathesis (interop/fuzz) found to crash the mock or answer 5xx, each now an
/// Auth0-style 4xx; and the router's own route list against the OpenAPI document.
@Suite struct MockFuzzRegressionTests {
  /// `METHOD /path` of every route the router itself holds (Hummingbird spells captures `{name}`,
  /// as OpenAPI does).
  @Test func everyRouteOnTheRouterIsDocumented() throws {
    let router = buildMockTenantRouter(tenant: try MockHarness.tenant())
    let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
    let documented = try MockOpenAPITests.documented()
    #expect(routed.count > 20)
    #expect(routed.subtracting(documented).isEmpty, "undocumented routes: \(routed.subtracting(documented).sorted())")
    #expect(
      documented.subtracting(routed).isEmpty, "documented, not routed: \(documented.subtracting(routed).sorted())")
  }

  /// Every documented request body that the route reads with `RequestParameters.body` (JSON or
  /// form, docs/protocol.md §1) is documented with both content types.
  @Test func bodiesAreDocumentedAsJSONAndForm() throws {
    let paths = try #require(try MockOpenAPITests.document()["paths"]?.objectValue)
    // The Management API's invitation body nests objects, which a form cannot carry.
    let jsonOnly: Set = ["POST /api/v2/organizations/{id}/invitations"]
    // An authorization request sent as a POST is a browser's form (OIDC Core §3.1.2.1), never JSON.
    let formOnly: Set = ["POST /authorize"]
    var missing: [String] = []
    for (path, item) in paths {
      for (method, operation) in item.objectValue ?? [:] {
        guard let content = operation.member("requestBody")?.member("content")?.objectValue else { continue }
        let name = "\(method.uppercased()) \(path)"
        let wanted =
          jsonOnly.contains(name)
          ? ["application/json"]
          : formOnly.contains(name)
            ? ["application/x-www-form-urlencoded"] : ["application/json", "application/x-www-form-urlencoded"]
        for type in wanted where content[type] == nil { missing.append("\(name) \(type)") }
      }
    }
    #expect(missing.isEmpty, "\(missing.sorted())")
  }

  /// The rate limit answers 429 on every Authentication API path it covers, so each documents it.
  @Test func rateLimitedOperationsDocument429() throws {
    let paths = try #require(try MockOpenAPITests.document()["paths"]?.objectValue)
    var missing: [String] = []
    for (path, item) in paths where RateLimitMiddleware.applies(to: path) {
      for (method, operation) in item.objectValue ?? [:] where operation.member("responses")?.member("429") == nil {
        missing.append("\(method.uppercased()) \(path)")
      }
    }
    #expect(missing.isEmpty, "\(missing.sorted())")
  }

  /// Numbers that do not fit an `Int` (`1e20`), fractions, `nan`/`inf` text: `Int(Double)` used to
  /// trap and take the whole mock down.
  @Test func faultNumbersThatDoNotFitAreA400() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let bodies: [[String: Value]] = [
        ["endpoint": .string("/userinfo"), "kind": .string("status"), "status": .double(1e20)],
        ["endpoint": .string("/userinfo"), "kind": .string("delay"), "delay_ms": .double(-1e300)],
        ["endpoint": .string("/userinfo"), "kind": .string("status"), "count": .double(9.3e18)],
        ["endpoint": .string("/userinfo"), "kind": .string("status"), "status": .double(503.5)],
        ["endpoint": .string("/userinfo"), "kind": .string("status"), "status": .string("five")],
      ]
      for body in bodies {
        let response = try await client.postJSON("/__mock/faults", body)
        #expect(response.status == .badRequest, "\(body)")
        #expect(response.json["error"] == .string("invalid_request"))
      }
      let form = try await client.postForm(
        "/__mock/faults", [("endpoint", "/userinfo"), ("kind", "status"), ("probability", "nan")])
      #expect(form.status == .badRequest)
      #expect(try await client.execute(uri: "/__mock/faults", method: .get).json["faults"] == .array([]))
      // Form numbers are read, not ignored.
      let added = try await client.postForm(
        "/__mock/faults", [("endpoint", "/userinfo"), ("kind", "status"), ("status", "502"), ("count", "1")])
      #expect(added.status == .created)
      #expect(added.json["status"] == .int(502))
      #expect(added.json["count"] == .int(1))
    }
  }

  /// A clock moved to `1e300` or `inf` seconds made every later `iat`/`exp` (`Int(Double)`)
  /// trap; the offset now stays within 100 years.
  @Test func clockAdvanceIsFiniteAndBounded() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for body: [String: Value] in [["seconds": .double(1e300)], ["seconds": .double(-4e9)], ["seconds": .null]] {
        let response = try await client.postJSON("/__mock/clock/advance", body)
        #expect(response.status == .badRequest, "\(body)")
        #expect(response.json["error"] == .string("invalid_request"))
      }
      for text in ["inf", "nan", "1e999", "-infinity"] {
        let response = try await client.postForm("/__mock/clock/advance", [("seconds", text)])
        #expect(response.status == .badRequest, "\(text)")
      }
      let moved = try await client.postForm("/__mock/clock/advance", [("seconds", "3000000000")])
      #expect(moved.status == .ok)
      #expect(
        try await client.postJSON("/__mock/clock/advance", ["seconds": .int(1_000_000_000)]).status == .badRequest)
      #expect(try await client.execute(uri: "/__mock/clock", method: .get).json["offset"] == .int(3_000_000_000))
      // Tokens are still issued (their `iat`/`exp` come from the moved clock).
      let tokens = try await EndpointTests.passwordLogin(client)
      #expect(tokens["access_token"] != nil, "\(tokens)")
    }
  }

  /// `approve` from a form body is the text `true`/`false`.
  @Test func pushDecisionReadsFormBooleans() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let unknown = try await client.postForm("/__mock/mfa/push", [("oob_code", "nope"), ("approve", "true")])
      #expect(unknown.status == .notFound)
      let invalid = try await client.postForm("/__mock/mfa/push", [("oob_code", "nope"), ("approve", "yes")])
      #expect(invalid.status == .badRequest)
    }
  }
}
