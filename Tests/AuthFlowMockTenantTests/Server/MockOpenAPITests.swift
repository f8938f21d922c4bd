import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// The mock's OpenAPI document (its one committed copy, the resource
/// `Sources/AuthFlowMockTenant/Resources/mock-openapi.json`; `authflow schema openapi` prints it) is
/// the one declaration of the mock's routes: the router is built from its operations, each bound by
/// its `operationId` to one handler of a family's table (``MockOperations``). Here: every operation
/// has an id and a handler, every handler answers an operation, the router holds exactly the
/// documented operations, each handler is found in one file under `Routes/`, every path is named by
/// a test, and no documented operation answers 5xx to malformed input. Adding an endpoint without
/// any one of its OpenAPI entry, handler or test fails here (docs/architecture.md, "Adding an
/// endpoint to the mock").
@Suite struct MockOpenAPITests {
  static let repository = MockHarness.repository

  /// The one committed copy of the document, in the repository.
  static let resource = "Sources/AuthFlowMockTenant/Resources/mock-openapi.json"

  static func document() throws -> [String: Value] {
    let data = try Data(contentsOf: repository.appending(path: resource))
    return try #require(try Value(json: data).objectValue)
  }

  /// Every operation of the committed document, with its operationId.
  static func operations() throws -> [MockOperation] {
    try MockOperations.operations(in: try Data(contentsOf: repository.appending(path: resource)))
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

  /// The families' handler tables of a tenant, by family.
  static func handlerIDs() throws -> [[String]] {
    mockHandlerTables(tenant: try MockHarness.tenant()).map { $0.keys.sorted() }
  }

  @Test func documentIsOpenAPI31AndEveryOperationHasAStableID() throws {
    let document = try Self.document()
    #expect(document["openapi"] == .string("3.1.0"))
    let operations = try Self.operations()
    #expect(operations.count > 60)
    // Every key of every path item is an operation (nothing is left unread by the router).
    #expect(operations.count == (try Self.documented()).count)
    for operation in operations {
      #expect(operation.id.wholeMatch(of: #/[a-z][A-Za-z0-9]*/#) != nil, "\(operation): not lowerCamelCase")
    }
  }

  /// The invariant the router is built on: every documented operation is bound to a handler and
  /// every handler answers a documented operation, so the router holds exactly the document's
  /// operations (read back from Hummingbird's `Router.routes`).
  @Test func everyOperationIsBoundAndEveryHandlerIsDocumented() throws {
    let router = Router(context: BasicRequestContext.self)
    try MockOperations.bind(mockHandlerTables(tenant: try MockHarness.tenant()), to: router)
    let ids = try Self.handlerIDs().flatMap { $0 }
    #expect(ids.count == Set(ids).count, "a handler is in two tables")
    #expect(Set(ids) == Set(try Self.operations().map(\.id)))
    let registered = try Self.registered()
    let documented = try Self.documented()
    #expect(Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" }) == registered)
    #expect(registered.subtracting(documented).isEmpty, "undocumented routes: \(registered.subtracting(documented))")
    #expect(
      documented.subtracting(registered).isEmpty, "documented but not routed: \(documented.subtracting(registered))"
    )
  }

  /// A handler without an operation, an operation without a handler, a handler in two tables, an
  /// operation without an id and an id given twice each stop the router from being built.
  @Test func aMismatchBetweenDocumentAndHandlersIsRefused() throws {
    let handler: MockHandler = { _, _ in Response(status: .noContent) }
    let operations = [
      MockOperation(method: .get, path: "/a", id: "getA"), MockOperation(method: .post, path: "/b/{id}", id: "postB"),
    ]
    func problems(_ tables: [[String: MockHandler]], partial: Bool = false) -> [String] {
      do {
        try MockOperations.bind(
          tables, to: Router(context: BasicRequestContext.self), operations: operations, partial: partial)
        return []
      } catch let mismatch as MockOperations.Mismatch {
        return mismatch.problems
      } catch {
        return ["\(error)"]
      }
    }
    #expect(problems([["getA": handler], ["postB": handler]]).isEmpty)
    #expect(problems([["getA": handler]]) == ["POST /b/{id} (postB) has no handler"])
    #expect(problems([["getA": handler]], partial: true).isEmpty)
    #expect(
      problems([["getA": handler, "postB": handler, "getC": handler]])
        == ["handler getC answers no operation of the document"])
    #expect(problems([["getA": handler, "postB": handler], ["getA": handler]]) == ["handler getA is in two tables"])

    func documentProblems(_ json: String) -> [String] {
      do {
        _ = try MockOperations.operations(in: Data(json.utf8))
        return []
      } catch let mismatch as MockOperations.Mismatch {
        return mismatch.problems
      } catch {
        return ["\(error)"]
      }
    }
    #expect(documentProblems(#"{"paths": {"/a": {"get": {"summary": "x"}}}}"#) == ["GET /a has no operationId"])
    #expect(
      documentProblems(#"{"paths": {"/a": {"get": {"operationId": "x"}}, "/b": {"post": {"operationId": "x"}}}}"#)
        == [#"operationId x is given to ["GET /a", "POST /b"]"#])
  }

  /// An endpoint is found by its path: the document names its `operationId`, and that id is a
  /// handler's key (`"mfaAssociate": { … }`) in exactly one file under `Routes/`, so searching the
  /// sources for `"mfaAssociate"` lands on its handler.
  @Test func everyHandlerIsKeyedByItsOperationIDInOneFile() throws {
    let routes = Self.repository.appending(path: "Sources/AuthFlowMockTenant/Routes")
    var files: [String: [String]] = [:]
    let operations = try Self.operations()
    let enumerator = FileManager.default.enumerator(at: routes, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      for operation in operations where text.contains("\"\(operation.id)\": {") {
        files[operation.id, default: []].append(url.lastPathComponent)
      }
    }
    for operation in operations {
      #expect(files[operation.id]?.count == 1, "\(operation) is handled in \(files[operation.id] ?? [])")
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
