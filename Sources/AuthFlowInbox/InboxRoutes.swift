import AuthFlowCore
import AuthFlowExpression
import AuthFlowMail
import Hummingbird
import NIOCore

/// The inbox's HTTP API (docs/messages.md, "The inbox's HTTP API"):
///
/// - `GET /api/v1/messages?to=ADDRESS&after=ID&limit=N&code_pattern=P&link_pattern=P`: the
///   messages to an address (all when `to` is absent) with an id above `after`, the newest `limit`
///   of them, oldest first, each with the `code` and `link` its text holds (by the patterns, else
///   the built-in rules); `last_id` is the id of the newest message received, to anyone;
/// - `DELETE /api/v1/messages`: forgets them all;
/// - `POST /api/v1/webhook/email`: a Custom Email Provider Action's `event.notification`;
/// - `POST /api/v1/webhook/sms`: a Custom Phone Provider Action's `event.notification`, or the
///   legacy SMS gateway's `{recipient, body}`;
/// - `GET /healthz`.
///
/// With a token, every `/api/` request must carry `Authorization: Bearer TOKEN`.
struct InboxRoutes: Sendable {
  let store: MessageStore
  let token: String?
  let maxWebhookBytes: Int

  func router() -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.get("healthz") { _, _ in Self.json(.object(["status": .string("ok")])) }
    let api = router.group("api/v1")
    if let token { api.add(middleware: BearerTokenMiddleware(token: token)) }
    api.get("messages") { request, _ in try await listMessages(request) }
    api.delete("messages") { _, _ in
      store.clear()
      return Response(status: .noContent)
    }
    api.post("webhook/email") { request, context in try await webhook(request, context: context, channel: .email) }
    api.post("webhook/sms") { request, context in try await webhook(request, context: context, channel: .sms) }
    return router
  }

  private func listMessages(_ request: Request) async throws -> Response {
    let to = request.uri.queryParameters.get("to")
    var patterns: [String: RegexPattern] = [:]
    for name in ["code_pattern", "link_pattern"] {
      guard let text = request.uri.queryParameters.get(name) else { continue }
      do {
        patterns[name] = try RegexPattern(text)
      } catch {
        return Self.error(.badRequest, "`\(name)` is not a pattern authflow reads: \(error.message)")
      }
    }
    var after: Int? = nil
    if let text = request.uri.queryParameters.get("after") {
      guard let number = Int(text), number >= 0 else {
        return Self.error(.badRequest, "`after` must be a message id (a whole number)")
      }
      after = number
    }
    var limit: Int? = nil
    if let text = request.uri.queryParameters.get("limit") {
      guard let number = Int(text), number >= 0 else {
        return Self.error(.badRequest, "`limit` must be a count (a whole number)")
      }
      limit = number
    }
    // The mark first: a message arriving between the two reads is above it, never lost to it.
    let lastID = store.lastID
    var messages = store.messages(to: to, after: after)
    if let limit, messages.count > limit { messages = Array(messages.suffix(limit)) }
    let values = messages.map { message in
      InboxMessageJSON.value(
        message, queried: to, codePattern: patterns["code_pattern"], linkPattern: patterns["link_pattern"])
    }
    return Self.json(.object(["messages": .array(values), "last_id": .int(lastID)]))
  }

  private func webhook(
    _ request: Request, context: BasicRequestContext, channel: InboxWebhook.Channel
  ) async throws -> Response {
    let buffer: ByteBuffer
    do {
      buffer = try await request.body.collect(upTo: maxWebhookBytes)
    } catch {
      return Self.error(.contentTooLarge, "the body is larger than \(maxWebhookBytes) bytes")
    }
    let payload: Value
    do {
      payload = try Value(jsonText: String(buffer: buffer))
    } catch {
      return Self.error(.badRequest, "the body is not JSON")
    }
    switch InboxWebhook.message(from: payload, channel: channel) {
    case .success(let inbound):
      let kept = store.add(inbound)
      return Self.json(.object(["id": .int(kept.id)]), status: .accepted)
    case .failure(let problem):
      return Self.error(.unprocessableContent, problem.message)
    }
  }

  static func json(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText(revealSecrets: true))))
  }

  static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
    json(.object(["error": .string(message)]), status: status)
  }
}

/// Refuses `/api/` requests without the inbox's bearer token (compared in constant time).
struct BearerTokenMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let token: String

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let presented = request.headers[.authorization].flatMap { header -> String? in
      header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : nil
    }
    guard let presented, Self.equal(Array(presented.utf8), Array(token.utf8)) else {
      var response = InboxRoutes.error(.unauthorized, "this inbox wants Authorization: Bearer TOKEN")
      response.headers[.wwwAuthenticate] = "Bearer"
      return response
    }
    return try await next(request, context)
  }

  /// Equal bytes, in time that depends on the lengths only.
  static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
    for index in 0..<max(left.count, right.count) {
      let a = index < left.count ? left[index] : 0
      let b = index < right.count ? right[index] : 0
      difference |= a ^ b
    }
    return difference == 0
  }
}
