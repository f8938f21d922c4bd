import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// The mock's OpenAPI document (its one committed copy, the resource
/// `Sources/AuthFlowMockTenant/Resources/mock-openapi.json`; `authflow schema openapi` prints it)
/// documents exactly the routes the mock's router registers (method and path, read from the router
/// itself), every route is registered by its literal path in one file and named by a test, and no
/// documented operation answers 5xx to malformed input. Adding an endpoint without any one of its
/// route, registration, OpenAPI entry or test fails here (docs/architecture.md, "Adding an
/// endpoint to the mock").
@Suite struct MockOpenAPITests {
  static let repository = MockHarness.repository

  /// The one committed copy of the document, in the repository.
  static let resource = "Sources/AuthFlowMockTenant/Resources/mock-openapi.json"

  static func document() throws -> [String: Value] {
    let data = try Data(contentsOf: repository.appending(path: resource))
    return try #require(try Value(json: data).objectValue)
  }

  /// `METHOD /path` of every operation in the document.
  static func documented() throws -> Set<String> {
    let paths = try #require(try document()["paths"]?.objectValue)
    var operations = Set<String>()
    for (path, item) in paths {
      for method in item.objectValue?.keys ?? [:].keys { operations.insert("\(method.uppercased()) \(path)") }
    }
    return operations
  }

  /// `METHOD /path` of every route the mock's router really registers, read from the built router
  /// (Hummingbird's `Router.routes`; its `{name}` path parameters are OpenAPI's).
  static func registered() throws -> Set<String> {
    let router = buildMockTenantRouter(tenant: try MockHarness.tenant())
    return Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
  }

  @Test func documentIsOpenAPI31AndMatchesTheRegisteredRoutes() throws {
    let document = try Self.document()
    #expect(document["openapi"] == .string("3.1.0"))
    let registered = try Self.registered()
    let documented = try Self.documented()
    #expect(registered.count > 60)
    #expect(registered.subtracting(documented).isEmpty, "undocumented routes: \(registered.subtracting(documented))")
    #expect(
      documented.subtracting(registered).isEmpty, "documented but not routed: \(documented.subtracting(registered))"
    )
  }

  /// An endpoint is found by its path: each route is registered with its path spelled out
  /// (`router.post("/mfa/associate")`) in exactly one file under `Routes/`, so searching the
  /// sources for `"/mfa/associate"` lands on it.
  @Test func everyRouteIsRegisteredByItsLiteralPathInOneFile() throws {
    let routes = Self.repository.appending(path: "Sources/AuthFlowMockTenant/Routes")
    var registrations: [String: [String]] = [:]
    let enumerator = FileManager.default.enumerator(at: routes, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      for operation in try Self.registered() {
        let parts = operation.split(separator: " ", maxSplits: 1)
        // Hummingbird reports `{name}`; the registration spells it `:name`.
        let path = parts[1].replacing(#/\{(\w+)\}/#) { ":" + $0.output.1 }
        if text.contains("router.\(parts[0].lowercased())(\"\(path)\"") {
          registrations[operation, default: []].append(url.lastPathComponent)
        }
      }
    }
    for operation in try Self.registered() {
      #expect(registrations[operation]?.count == 1, "\(operation) is registered in \(registrations[operation] ?? [])")
    }
  }

  /// Every documented path is exercised by a test of its own: some test file besides this one (whose
  /// fuzz sends every path) names it, up to its first path parameter.
  @Test func everyDocumentedPathIsNamedByATest() throws {
    let tests = Self.repository.appending(path: "Tests")
    var texts: [String] = []
    let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift", url.lastPathComponent != "MockOpenAPITests.swift" else { continue }
      texts.append(try String(contentsOf: url, encoding: .utf8))
    }
    let paths = Set(try Self.documented().map { String($0.split(separator: " ", maxSplits: 1)[1]) })
    for path in paths.sorted() {
      let named = String(path.prefix { $0 != "{" })
      #expect(texts.contains { $0.contains(named) }, "no test names \(path)")
    }
  }

  /// Bounded fuzz: every documented operation with malformed bodies and parameters; never a 5xx,
  /// never a 404 (the route exists).
  @Test func malformedInputNeverGetsA5xx() async throws {
    let operations = try Self.documented().sorted()
    let bodies: [(String, String)] = [
      ("application/json", "{nope"), ("application/json", "[1,2]"), ("application/json", "null"),
      ("application/json", #"{"client_id":{"x":1},"grant_type":["a"],"mfa_token":7,"user_metadata":"{"}"#),
      ("application/x-www-form-urlencoded", "a=%ZZ&&=&client_id=&grant_type=%00"),
      ("text/plain", String(repeating: "\u{FFFD}", count: 64)), ("", ""),
    ]
    let queries = ["", "?state=%ZZ&ticket=&returnTo=javascript:1", "?client_id=native-client-id&redirect_uri=%00"]
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for operation in operations {
        let parts = operation.split(separator: " ", maxSplits: 1)
        let method = HTTPRequest.Method(rawValue: String(parts[0])) ?? .get
        let path = String(parts[1])
        guard path != "/__mock/reset" else { continue }
        for query in queries {
          for (contentType, body) in method == .get ? [("", "")] : bodies {
            var headers: HTTPFields = [.authorization: "Bearer %%%"]
            if !contentType.isEmpty { headers[.contentType] = contentType }
            let response = try await client.execute(
              uri: path + query, method: method, headers: headers, body: ByteBuffer(string: body))
            #expect(response.status.code < 500, "\(operation)\(query) \(body): \(response.status)")
            // The opt-in login pages (`tenant.login_page`) answer 404 on the default tenant, as Auth0 does.
            let optIn = ["/u/identify", "/login.html", "/api/auth"].contains(path)
            #expect(
              response.status != .notFound || path.hasPrefix("/__mock/mfa") || optIn, "\(operation) is not routed")
          }
        }
      }
    }
  }
}
