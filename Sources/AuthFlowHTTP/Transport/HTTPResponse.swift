public import AuthFlowCore
import Foundation

/// One HTTP response with its whole body.
public struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  public var headers: HTTPHeaderFields
  public var body: [UInt8]
  /// The URL that was requested to get this response.
  public var url: String
  /// The body read as an HTML page, when something on the way already read it so
  /// (``SecretLearningTransport`` does, for every page it learns secrets from): the browser then
  /// uses that page instead of parsing the body again. Derived from `body` and `url`, so it takes
  /// no part in equality.
  public var page: HTMLDocument?

  public init(status: Int, headers: HTTPHeaderFields = [:], body: [UInt8] = [], url: String) {
    self.status = status
    self.headers = headers
    self.body = body
    self.url = url
  }

  public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
    lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.url == rhs.url
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(status)
    hasher.combine(headers)
    hasher.combine(body)
    hasher.combine(url)
  }

  /// The body decoded as UTF-8 (invalid sequences replaced).
  public var bodyText: String {
    String(decoding: body, as: UTF8.self)
  }

  /// The body parsed as JSON, or nil when it is not JSON.
  public var jsonValue: Value? {
    guard !body.isEmpty else { return nil }
    return try? Value(json: Data(body))
  }

  /// True for 301, 302, 303, 307 and 308.
  public var isRedirect: Bool {
    [301, 302, 303, 307, 308].contains(status)
  }

  /// The `Location` header resolved against the response URL.
  public var location: String? {
    guard let location = headers["Location"] else { return nil }
    return URLResolution.resolve(location, against: url) ?? location
  }

  /// The media type of `Content-Type`, lowercased, without parameters.
  public var mediaType: String? {
    headers["Content-Type"].map(MediaType.essence)
  }
}

/// Media type helpers.
enum MediaType {
  /// `Text/HTML; charset=utf-8` → `text/html`.
  static func essence(_ contentType: String) -> String {
    let base = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return base.trimmingCharacters(in: .whitespaces).lowercased()
  }

  static func isJSON(_ contentType: String?) -> Bool {
    guard let type = contentType.map(essence) else { return false }
    return type == "application/json" || type.hasSuffix("+json")
  }

  static func isForm(_ contentType: String?) -> Bool {
    contentType.map(essence) == "application/x-www-form-urlencoded"
  }
}
