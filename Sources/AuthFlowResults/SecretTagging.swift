public import AuthFlowCore

extension Value {
  /// The value with what a tenant sends as credentials marked secret: members whose names are
  /// token-, code- or password-like (`access_token`, `refresh_token`, `code`, `client_secret`, …)
  /// become secrets, and strings that are JWTs become JWT values (secret, with readable claims).
  /// An error object's `code` (`requires_verification`) stays readable: it is evidence
  /// (``SecretFieldNames/isSecretMember(_:siblings:)``). Values embedded in text (a ticket in a
  /// link, a code in a message) are registered by ``SecretExtraction`` when the response arrives.
  public func taggingSecrets() -> Value {
    switch self {
    case .object(let members):
      var tagged: [String: Value] = [:]
      for (key, member) in members {
        let inner = member.taggingSecrets()
        tagged[key] = SecretFieldNames.isSecretMember(key, siblings: members.keys) ? inner.asSecret : inner
      }
      return .object(tagged)
    case .array(let items):
      return .array(items.map { $0.taggingSecrets() })
    case .string(let text):
      if text.utf8.count > 20, text.utf8.first == UInt8(ascii: "e"), let token = JWTValue(raw: text) {
        return .jwt(token)
      }
      return self
    default:
      return self
    }
  }
}
