/// What a browser navigation ended with.
public struct BrowserResponse: Sendable, Hashable {
  /// The last response fetched. When the chain stopped at a callback, this is the redirect that
  /// pointed there.
  public var response: HTTPResponse
  /// Every URL fetched, in order (the first is the request's URL).
  public var visited: [String]
  /// The redirect target the browser stopped at without fetching: a registered callback prefix
  /// or a non-http(s) scheme (`com.example.app://…/callback?code=…`).
  public var callbackURL: String?

  public init(response: HTTPResponse, visited: [String], callbackURL: String? = nil) {
    self.response = response
    self.visited = visited
    self.callbackURL = callbackURL
  }

  /// The URL of the last response fetched.
  public var url: String { response.url }
}
