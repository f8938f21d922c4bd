import Hummingbird

extension AuthorizeError {
  /// The Universal Login error page showing this error: what a browser gets when there is no
  /// trusted redirect to send it on (an unknown transaction, a refused form post, a bad link).
  func page(status: HTTPResponse.Status = .badRequest) -> Response {
    Responses.html(LoginPages.error(code: code, description: description), status: status)
  }
}
