import Hummingbird

/// An error that is its own answer: the OAuth, Management API and My Account API errors, each in its
/// API's envelope.
protocol ErrorResponse: Error {
  var response: Response { get }
}

extension ErrorResponse {
  /// Runs an endpoint of this error's API: an error of this type it throws is its answer; any other
  /// error becomes `fallback`'s.
  static func respond(
    otherwise fallback: (any Error) -> Self, _ body: () async throws -> Response
  ) async -> Response {
    do {
      return try await body()
    } catch let error as Self {
      return error.response
    } catch {
      return fallback(error).response
    }
  }
}
