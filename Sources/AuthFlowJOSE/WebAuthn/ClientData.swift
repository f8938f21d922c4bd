import AuthFlowCore
import Foundation

/// `CollectedClientData` (the JSON the browser signs over): type, challenge (base64url), origin.
public struct ClientData: Sendable, Hashable {
  public static let create = "webauthn.create"
  public static let get = "webauthn.get"

  public var type: String
  public var challenge: String
  public var origin: String
  public var crossOrigin: Bool

  public init(type: String, challenge: String, origin: String, crossOrigin: Bool = false) {
    self.type = type
    self.challenge = challenge
    self.origin = origin
    self.crossOrigin = crossOrigin
  }

  /// Parses `clientDataJSON`; nil when it is not an object with string `type`, `challenge`, `origin`.
  public init?(json: [UInt8]) {
    guard case .object(let members)? = try? Value(json: Data(json)),
      let type = members["type"]?.stringValue, let challenge = members["challenge"]?.stringValue,
      let origin = members["origin"]?.stringValue
    else { return nil }
    self.init(type: type, challenge: challenge, origin: origin, crossOrigin: members["crossOrigin"]?.boolValue ?? false)
  }

  /// The JSON bytes, members in the order browsers write them.
  public var json: [UInt8] {
    func quoted(_ text: String) -> String { Value.string(text).jsonText(revealSecrets: true) }
    let text =
      "{\"type\":\(quoted(type)),\"challenge\":\(quoted(challenge)),\"origin\":\(quoted(origin)),\"crossOrigin\":\(crossOrigin)}"
    return Array(text.utf8)
  }
}
