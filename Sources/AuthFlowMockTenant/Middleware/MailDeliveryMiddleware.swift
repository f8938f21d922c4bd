import Hummingbird

/// On a mock that sends its messages over SMTP too, a response leaves once the messages its
/// request sent are delivered (``MockMailRelay/drained()``): as a provider that sends its mail
/// inside the request, so that the next step finds them in the receiver.
struct MailDeliveryMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let tenant: MockTenant

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let response = try await next(request, context)
    await tenant.messagesDelivered()
    return response
  }
}
