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
  /// The patterns of one byte length, with their first four bytes for a cheap first test.
  private struct PatternGroup {
    var patterns: Set<[UInt8]> = []
    var prefixes: Set<UInt32> = []
  }

  private struct State {
    var secrets: Set<String> = []
    /// The search patterns (each secret and its percent-encoded form) by byte length; a
    /// registration adds its own, so nothing is recomputed for the secrets already known.
    var groups: [Int: PatternGroup] = [:]
    /// The keys of `groups`, longest first.
    var lengths: [Int] = []
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
    let isNew = state.withLock { $0.secrets.contains(text) } == false
    guard isNew else { return }
    var forms = [Array(text.utf8)]
    if let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != text {
      forms.append(Array(encoded.utf8))
    }
    state.withLock { state in
      guard state.secrets.insert(text).inserted else { return }
      for pattern in forms {
        if state.groups[pattern.count] == nil {
          state.lengths.append(pattern.count)
          state.lengths.sort(by: >)
        }
        state.groups[pattern.count, default: PatternGroup()].patterns.insert(pattern)
        state.groups[pattern.count, default: PatternGroup()].prefixes.insert(Self.prefix(of: pattern, at: 0))
      }
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

  /// Replaces every known secret in `text` with the mask, including its percent-encoded form.
  /// Longer secrets go first, so a secret inside a longer one never leaves part of it visible.
  public func scrub(_ text: String) -> String {
    if revealSecrets { return text }
    let (groups, lengths) = state.withLock { ($0.groups, $0.lengths) }
    guard let shortest = lengths.last, text.utf8.count >= shortest else { return text }
    var bytes = Array(text.utf8)
    var changed = false
    for length in lengths where length <= bytes.count {
      guard let group = groups[length] else { continue }
      if let replaced = Self.replace(group, length: length, in: bytes) {
        bytes = replaced
        changed = true
      }
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : text
  }

  /// `bytes` with every occurrence of a pattern of `group` (all `length` bytes long) replaced by
  /// the mask, left to right; nil when there is none.
  private static func replace(_ group: PatternGroup, length: Int, in bytes: [UInt8]) -> [UInt8]? {
    let mask = Array(Redaction.mask.utf8)
    var output: [UInt8] = []
    var copiedUpTo = 0
    var index = 0
    while index + length <= bytes.count {
      if group.prefixes.contains(prefix(of: bytes, at: index)),
        group.patterns.contains(Array(bytes[index..<(index + length)]))
      {
        output.append(contentsOf: bytes[copiedUpTo..<index])
        output.append(contentsOf: mask)
        index += length
        copiedUpTo = index
      } else {
        index += 1
      }
    }
    guard copiedUpTo > 0 else { return nil }
    output.append(contentsOf: bytes[copiedUpTo...])
    return output
  }

  /// The four bytes at `offset` (patterns are at least four bytes long).
  private static func prefix(of bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }
}
