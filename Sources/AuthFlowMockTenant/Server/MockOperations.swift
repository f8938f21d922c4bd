import AuthFlowCore
import Foundation
import Hummingbird

/// What answers one operation of the mock's OpenAPI document.
typealias MockHandler = @Sendable (Request, BasicRequestContext) async throws -> Response

/// One operation of the mock's OpenAPI document (``MockOpenAPIDocument``): its method, its path as
/// the document spells it (`/api/v2/users/{id}`, which is also Hummingbird's capture syntax) and its
/// `operationId`, the key of its handler.
struct MockOperation: Hashable, Sendable, CustomStringConvertible {
  let method: HTTPRequest.Method
  let path: String
  let id: String

  var description: String { "\(method.rawValue) \(path) (\(id))" }
}

/// The mock's routes are declared once, in its OpenAPI document: the router is built by walking the
/// document's `paths` × methods and binding each operation to the handler its `operationId` names
/// in a family's table (`var handlers: [String: MockHandler]` in `Routes/<Family>/`). An operation
/// without a handler, a handler without an operation, or an `operationId` given twice is an error,
/// and the router is not built (docs/architecture.md, "Adding an endpoint to the mock").
enum MockOperations {
  /// Why the document and the handlers do not fit, every problem at once.
  struct Mismatch: Error, CustomStringConvertible {
    let problems: [String]

    var description: String {
      "the mock's OpenAPI document and its handlers do not match:\n"
        + problems.map { "- " + $0 }.joined(separator: "\n")
    }
  }

  /// The operation keys of an OpenAPI 3.1 path item (its other keys, `parameters`, `summary`, … are
  /// not operations).
  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

  /// The operations of a document, sorted by path, then method.
  static func operations(in data: Data) throws -> [MockOperation] {
    guard let paths = try Value(json: data).objectValue?["paths"]?.objectValue else {
      throw Mismatch(problems: ["the document has no `paths` object"])
    }
    var operations: [MockOperation] = []
    var problems: [String] = []
    for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
      for method in methods {
        guard let operation = item.objectValue?[method],
          let httpMethod = HTTPRequest.Method(rawValue: method.uppercased())
        else { continue }
        guard let id = operation.objectValue?["operationId"]?.stringValue, !id.isEmpty else {
          problems.append("\(method.uppercased()) \(path) has no operationId")
          continue
        }
        operations.append(MockOperation(method: httpMethod, path: path, id: id))
      }
    }
    let counts = Dictionary(grouping: operations, by: \.id)
    for (id, named) in counts.sorted(by: { $0.key < $1.key }) where named.count > 1 {
      problems.append("operationId \(id) is given to \(named.map { "\($0.method.rawValue) \($0.path)" })")
    }
    guard problems.isEmpty else { throw Mismatch(problems: problems) }
    return operations
  }

  /// The operations of the bundled document, read once.
  static let documented: Result<[MockOperation], any Error> = Result {
    guard let data = MockOpenAPIDocument.data else {
      throw Mismatch(problems: ["the OpenAPI document (Resources/mock-openapi.json) is not bundled"])
    }
    return try operations(in: data)
  }

  /// Binds every operation to its handler on the router. The tables are the families' handler
  /// tables; an operationId in two tables is an error too. With `partial`, only the operations
  /// the tables answer are bound (a test's router of one family), each handler still documented.
  static func bind(
    _ tables: [[String: MockHandler]], to router: Router<BasicRequestContext>,
    operations: [MockOperation]? = nil, partial: Bool = false
  ) throws {
    let operations = try operations ?? documented.get()
    var handlers: [String: MockHandler] = [:]
    var problems: [String] = []
    for table in tables {
      for (id, handler) in table {
        if handlers.updateValue(handler, forKey: id) != nil { problems.append("handler \(id) is in two tables") }
      }
    }
    let documentedIDs = Set(operations.map(\.id))
    for id in handlers.keys.sorted() where !documentedIDs.contains(id) {
      problems.append("handler \(id) answers no operation of the document")
    }
    if !partial {
      for operation in operations where handlers[operation.id] == nil {
        problems.append("\(operation) has no handler")
      }
    }
    guard problems.isEmpty else { throw Mismatch(problems: problems) }
    for operation in operations {
      guard let handler = handlers[operation.id] else { continue }
      router.on(RouterPath(operation.path), method: operation.method, use: handler)
    }
  }
}
