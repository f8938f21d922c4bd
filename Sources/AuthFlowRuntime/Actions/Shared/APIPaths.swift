import Foundation

/// Paths of the bearer-token APIs (Management, My Account, Organizations) shared by their actions.
enum APIPaths {
  /// The My Account API's authentication methods (docs/protocol.md §6).
  static let myAccountMethods = "me/v1/authentication-methods"

  /// A path segment, percent-encoded (`|` → `%7C`).
  static func encode(_ segment: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
  }

  /// The method id an enrollment's `Location` names: its last path segment, percent-decoded
  /// (Auth0.swift's rule); nil without a header.
  static func enrollmentID(_ location: String?) -> String? {
    guard let location, !location.isEmpty else { return nil }
    let path = URLComponents(string: location)?.percentEncodedPath ?? location
    guard let last = path.split(separator: "/").last else { return nil }
    return String(last).removingPercentEncoding ?? String(last)
  }
}
