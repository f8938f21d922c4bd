import Foundation
import Hummingbird

/// `GET /__mock/openapi.json`: the OpenAPI 3.1 document of the mock's whole HTTP surface
/// (`schemas/mock-openapi.json`, bundled as a resource; a test keeps it in step with the routes).
struct OpenAPIRoutes {
  static let document: Data? = Bundle.module.url(
    forResource: "mock-openapi", withExtension: "json", subdirectory: "Resources"
  ).flatMap { FileManager.default.contents(atPath: $0.path) }

  func register(on router: Router<BasicRequestContext>) {
    router.get("/__mock/openapi.json") { _, _ in
      guard let data = Self.document else {
        return OAuthError(status: .notFound, code: "not_found", description: "the OpenAPI document is not bundled")
          .response
      }
      return Response(
        status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
  }
}
