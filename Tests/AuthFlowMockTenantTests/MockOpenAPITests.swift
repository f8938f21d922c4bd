import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// The mock's OpenAPI document (its one committed copy, the resource
/// `Sources/AuthFlowMockTenant/Resources/mock-openapi.json`; `authflow schema openapi` prints it)
/// documents exactly the routes the mock registers, and no documented
/// operation answers 5xx to malformed input.
@Suite struct MockOpenAPITests {
  static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

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

  /// `METHOD /path` of every `router.<method>("/path")` in the mock's sources.
  static func registered() throws -> Set<String> {
    let sources = repository.appending(path: "Sources/AuthFlowMockTenant")
    let regex = try NSRegularExpression(pattern: #"router\.(get|post|put|patch|delete|head)\("([^"]+)""#)
    var operations = Set<String>()
    let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      let range = NSRange(text.startIndex..., in: text)
      for match in regex.matches(in: text, range: range) {
        guard let method = Range(match.range(at: 1), in: text), let path = Range(match.range(at: 2), in: text) else {
          continue
        }
        // Hummingbird's `:name` path parameters are OpenAPI's `{name}`.
        let openAPIPath = text[path].split(separator: "/", omittingEmptySubsequences: false).map { segment in
          segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
        }.joined(separator: "/")
        operations.insert("\(text[method].uppercased()) \(openAPIPath)")
      }
    }
    return operations
  }

  @Test func documentIsOpenAPI31AndMatchesTheRegisteredRoutes() throws {
    let document = try Self.document()
    #expect(document["openapi"] == .string("3.1.0"))
    let registered = try Self.registered()
    let documented = try Self.documented()
    #expect(registered.count > 20)
    #expect(registered.subtracting(documented).isEmpty, "undocumented routes: \(registered.subtracting(documented))")
    #expect(
      documented.subtracting(registered).isEmpty, "documented but not registered: \(documented.subtracting(registered))"
    )
  }

  /// One copy: the repository holds the document once (no second copy under `schemas/`), and what
  /// the mock serves and `authflow schema openapi` prints is that file, byte for byte.
  @Test func oneCommittedCopyIsTheOneServed() async throws {
    let committed = try Data(contentsOf: Self.repository.appending(path: Self.resource))
    #expect(!FileManager.default.fileExists(atPath: Self.repository.appending(path: "schemas/mock-openapi.json").path))
    #expect(MockOpenAPIDocument.data == committed)
    #expect(MockOpenAPIDocument.text.map { Data($0.utf8) } == committed)
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let served = try await client.execute(uri: "/__mock/openapi.json", method: .get)
      #expect(served.status == .ok)
      #expect(Data(served.body.readableBytesView) == committed)
      #expect(served.json["openapi"] == .string("3.1.0"))
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
