import Foundation
import Synchronization

/// How secrets are hidden in every output.
public enum Redaction {
  /// What a secret is replaced with.
  public static let mask = "***"
}

/// Every secret text a run has seen, so that outputs built from free text (HTTP traces, error
/// messages, URLs with a `code=` in them) can be scrubbed as a last line of defence.
///
/// Shared by the concurrent steps of a run; the only state is the set of texts.
public final class SecretRegistry: Sendable {
  private let secrets = Mutex<Set<String>>([])
  /// When true (`--show-secrets`), `scrub` returns its input unchanged.
  public let revealSecrets: Bool

  public init(revealSecrets: Bool = false) {
    self.revealSecrets = revealSecrets
  }

  /// Records a secret text. Texts shorter than four characters are not recorded: scrubbing them
  /// would mangle unrelated output, and they are redacted structurally wherever they are values.
  public func register(_ text: String) {
    guard text.count >= 4 else { return }
    _ = secrets.withLock { $0.insert(text) }
  }

  /// Records every secret inside `value`.
  public func register(secretsIn value: Value) {
    switch value {
    case .secret(let inner): registerAll(inner)
    case .jwt(let token): register(token.raw)
    case .array(let items): items.forEach { register(secretsIn: $0) }
    case .object(let members): members.values.forEach { register(secretsIn: $0) }
    default: break
    }
  }

  private func registerAll(_ value: Value) {
    switch value {
    case .string(let text): register(text)
    case .int(let number): register(String(number))
    case .jwt(let token): register(token.raw)
    case .secret(let inner): registerAll(inner)
    case .array(let items): items.forEach(registerAll)
    case .object(let members): members.values.forEach(registerAll)
    default: break
    }
  }

  /// The known secrets, longest first.
  public var all: [String] {
    secrets.withLock { Array($0) }.sorted { $0.count > $1.count }
  }

  /// Replaces every known secret in `text` with the mask, including its percent-encoded form.
  public func scrub(_ text: String) -> String {
    if revealSecrets { return text }
    let known = all
    guard !known.isEmpty else { return text }
    var result = text
    for secret in known where result.contains(secret) {
      result = result.replacingOccurrences(of: secret, with: Redaction.mask)
    }
    for secret in known {
      if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret,
        result.contains(encoded)
      {
        result = result.replacingOccurrences(of: encoded, with: Redaction.mask)
      }
    }
    return result
  }
}
