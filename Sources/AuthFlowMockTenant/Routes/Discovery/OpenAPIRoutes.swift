import Foundation
import Hummingbird

/// The OpenAPI 3.1 document of the mock's whole HTTP surface: the one committed copy is the mock's
/// resource `Resources/mock-openapi.json`, and the one declaration of its routes: the router binds
/// each of its operations to a handler by `operationId` (``MockOperations``). The mock serves it at
/// `/__mock/openapi.json`; `authflow schema openapi [--output FILE]` prints or writes it.
public enum MockOpenAPIDocument {
  /// The document's bytes, as bundled; nil when the resource is missing from the build.
  static let data: Data? = Bundle.module.url(
    forResource: "mock-openapi", withExtension: "json", subdirectory: "Resources"
  ).flatMap { FileManager.default.contents(atPath: $0.path) }

  /// The document as text (UTF-8), for `authflow schema openapi`.
  public static var text: String? { data.flatMap { String(bytes: $0, encoding: .utf8) } }
}

/// `GET /__mock/openapi.json`: serves ``MockOpenAPIDocument``.
struct OpenAPIRoutes {
  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mockGetOpenAPIDocument": { _, _ in
        guard let data = MockOpenAPIDocument.data else {
          return OAuthError(status: .notFound, code: "not_found", description: "the OpenAPI document is not bundled")
            .response
        }
        return Response(
          status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
      }
    ]
  }
}
