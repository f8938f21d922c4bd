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
/// Shared by the concurrent steps of a run. Scrubbing is on every output's path, so the patterns
/// (each secret and its percent-encoded form, longest first) are prepared once per registration
/// and searched as UTF-8 bytes.
public final class SecretRegistry: Sendable {
  private struct State {
    var secrets: Set<String> = []
    /// The search patterns, longest first; nil when a registration made them stale.
    var patterns: [[UInt8]]? = []
  }

  private let state = Mutex<State>(State())
  /// When true (`--show-secrets`), `scrub` returns its input unchanged.
  public let revealSecrets: Bool

  public init(revealSecrets: Bool = false) {
    self.revealSecrets = revealSecrets
  }

  /// Records a secret text. Texts shorter than four characters are not recorded: scrubbing them
  /// would mangle unrelated output, and they are redacted structurally wherever they are values.
  public func register(_ text: String) {
    guard text.count >= 4 else { return }
    state.withLock { state in
      if state.secrets.insert(text).inserted { state.patterns = nil }
    }
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
    state.withLock { Array($0.secrets) }.sorted { $0.utf8.count > $1.utf8.count }
  }

  private var patterns: [[UInt8]] {
    state.withLock { state in
      if let patterns = state.patterns { return patterns }
      var texts = Set(state.secrets)
      for secret in state.secrets {
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { texts.insert(encoded) }
      }
      let patterns = texts.map { Array($0.utf8) }.sorted { $0.count > $1.count }
      state.patterns = patterns
      return patterns
    }
  }

  /// Replaces every known secret in `text` with the mask, including its percent-encoded form.
  public func scrub(_ text: String) -> String {
    if revealSecrets { return text }
    let patterns = self.patterns
    guard let shortest = patterns.last?.count, text.utf8.count >= shortest else { return text }
    var bytes = Array(text.utf8)
    var changed = false
    let mask = Array(Redaction.mask.utf8)
    for pattern in patterns where pattern.count <= bytes.count {
      var searchFrom = 0
      while let found = Self.find(pattern, in: bytes, from: searchFrom) {
        bytes.replaceSubrange(found..<(found + pattern.count), with: mask)
        searchFrom = found + mask.count
        changed = true
      }
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : text
  }

  /// The offset of the first occurrence of `pattern` in `bytes` at or after `start`.
  private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard let first = pattern.first, start < bytes.count, bytes.count - start >= pattern.count else { return nil }
    return bytes.withUnsafeBufferPointer { haystack -> Int? in
      pattern.withUnsafeBufferPointer { needle -> Int? in
        let last = haystack.count - needle.count
        var index = start
        while index <= last {
          if haystack[index] == first {
            var offset = 1
            while offset < needle.count && haystack[index + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return index }
          }
          index += 1
        }
        return nil
      }
    }
  }
}
