import AuthFlowCore

extension Value {
  /// Appends the value as interpolation renders it, revealing secrets (the caller marks the
  /// result secret): strings as they are, numbers and booleans as in JSON, `null` as nothing,
  /// a JWT as its compact text, arrays and objects as compact JSON with sorted keys.
  func appendInterpolation(to text: inout String) {
    switch self {
    case .null: break
    case .string(let string): text += string
    case .bool(let flag): text += flag ? "true" : "false"
    case .int(let number): text += String(number)
    case .double: text += jsonText()
    case .secret(let inner): inner.appendInterpolation(to: &text)
    case .jwt(let token): text += token.raw
    case .array, .object: text += jsonText(revealSecrets: true)
    }
  }

  /// The value as interpolation renders it, secret when it holds a secret.
  var interpolated: Value {
    var text = ""
    appendInterpolation(to: &text)
    return containsSecret ? .secret(.string(text)) : .string(text)
  }
}
