import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// Test control under `/__mock/`: outbox, virtual clock, key rotation, reset (docs/design.md §4).
struct MockControlRoutes {
  let tenant: MockTenant
  /// Makes the key `/__mock/rotate-keys` rotates to (a fresh key of the fixture's kind,
  /// ``MockTenant/makeKey(for:kid:)``; tests inject failures). Nil: that default.
  var makeKey: (@Sendable () throws -> SigningKey)?

  /// `/__mock/rotate-keys` when no key could be made: 409, never a 5xx (the mock's "never a 500"
  /// rule; the fuzzer expects no 5xx). The current key stays in use, so a retry is safe.
  static let keyGenerationFailed = OAuthError(
    status: .conflict, code: "key_generation_failed",
    description: "Could not make a new signing key; the current key stays in use. Try again.")

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mockListOutbox": { request, _ in
        let query = RequestParameters.query(of: request)
        guard let page = OutboxPage(query: query) else {
          return OAuthError(
            status: .badRequest, code: "invalid_request",
            description: "`after` must be a message id and `limit` a count (whole numbers, 0 or more)"
          ).response
        }
        let (messages, lastID) = tenant.read { state in
          (page.select(state.outbox.list(to: query.string("to"))), state.outbox.lastID)
        }
        return Responses.json(
          .object(["messages": .array(messages.map(MockControlRoutes.json)), "last_id": .int(lastID)]))
      },
      "mockClearOutbox": { _, _ in
        tenant.transact { $0.clearOutbox() }
        return Responses.empty(status: .noContent)
      },
      "mockGetClock": { _, _ in Responses.json(clock()) },
      "mockAdvanceClock": { request, context in
        // The offset stays within ±100 years: timestamps (`iat`, `exp`, ISO dates) stay representable.
        guard let parameters = await RequestParameters.body(of: request, context: context),
          let seconds = parameters.number("seconds"),
          tenant.clock.advance(by: seconds, keepingOffsetWithin: Self.maximumClockOffset)
        else {
          return OAuthError(
            status: .badRequest, code: "invalid_request",
            description: "Body must be {\"seconds\": <number>}, keeping the clock within 100 years of now"
          ).response
        }
        return Responses.json(clock())
      },
      "mockRotateKeys": { request, context in
        let parameters = await RequestParameters.body(of: request, context: context)
        let revoke =
          parameters?.values["revoke_previous"]?.boolValue ?? (parameters?.string("revoke_previous") == "true")
        let key: SigningKey
        do {
          key = try makeKey?() ?? MockTenant.makeKey(for: tenant.fixture)
        } catch {
          return Self.keyGenerationFailed.response
        }
        let published = tenant.transact { $0.rotateSigningKey(to: key, revokePrevious: revoke) }
        return Responses.json(
          .object(["kid": .string(key.kid), "published": .array(published.map(Value.string))]))
      },
      "mockReset": { _, _ in
        await tenant.reset()
        return Responses.empty(status: .noContent)
      },
    ]
  }

  /// How far `/__mock/clock/advance` may move the virtual clock from the real one, in seconds.
  static let maximumClockOffset = 100 * 365.25 * 86_400

  private func clock() -> Value {
    .object([
      "now": .int(tenant.clock.epoch), "iso": .string(UserClaims.isoMilliseconds(tenant.clock.seconds)),
      "offset": .double(tenant.clock.offsetSeconds),
    ])
  }

  static func json(_ message: OutboxMessage) -> Value {
    var members: [String: Value] = [
      "id": .int(message.id), "channel": .string(message.channel.rawValue), "to": .string(message.to),
      "subject": .string(message.subject), "body": .string(message.body), "sent_at": .int(Int(message.sentAt)),
    ]
    if let code = message.code { members["code"] = .string(code) }
    if let link = message.link { members["link"] = .string(link) }
    return .object(members)
  }
}

/// `GET /__mock/outbox`'s paging: only messages with an id above `after`, and of those the newest
/// `limit` (oldest first still). The answer's `last_id` is the id of the newest message sent, to
/// anyone: the mark `outbox`'s `after:` compares ids with (ids only grow, even across a clear).
struct OutboxPage: Sendable {
  var after: Int?
  var limit: Int?

  init?(query: RequestParameters) {
    for (name, text) in [("after", query.string("after")), ("limit", query.string("limit"))] {
      guard let text else { continue }
      guard let number = Int(text), number >= 0 else { return nil }
      if name == "after" { after = number } else { limit = number }
    }
  }

  func select(_ messages: [OutboxMessage]) -> [OutboxMessage] {
    var selected = messages
    if let after { selected = selected.filter { $0.id > after } }
    if let limit, selected.count > limit { selected = Array(selected.suffix(limit)) }
    return selected
  }
}
