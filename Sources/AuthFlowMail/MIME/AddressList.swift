/// The addr-specs of an address-list header (`From`, `To`, `Cc`): display names, comments and
/// group syntax are dropped, so `"Doe, Jane" <jane@example.com>` yields `jane@example.com`.
enum AddressList {
  static func addresses(in value: String) -> [String] {
    var result: [String] = []
    var current = String.UnicodeScalarView()
    var angle: String.UnicodeScalarView?
    var inQuotes = false
    var commentDepth = 0
    var escaped = false
    func finish() {
      let address = String(angle ?? current).trimmingSpace()
      if !address.isEmpty { result.append(address) }
      current = String.UnicodeScalarView()
      angle = nil
    }
    for scalar in value.unicodeScalars {
      if escaped {
        escaped = false
        if angle == nil { current.append(scalar) }
      } else if commentDepth > 0 {
        if scalar == "(" { commentDepth += 1 } else if scalar == ")" { commentDepth -= 1 }
      } else if inQuotes {
        if scalar == "\\" { escaped = true } else if scalar == "\"" { inQuotes = false } else { current.append(scalar) }
      } else if angle != nil {
        if scalar == ">" { angle.map { current = $0 } } else { angle?.append(scalar) }
        if scalar == ">" { angle = nil }
      } else {
        switch scalar {
        case "\"": inQuotes = true
        case "(": commentDepth = 1
        case "<": angle = String.UnicodeScalarView()
        case ":": current = String.UnicodeScalarView()  // a group's display name
        case ",", ";": finish()
        default: current.append(scalar)
        }
      }
    }
    finish()
    return result
  }
}
