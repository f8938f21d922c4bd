/// Ordered name/value pairs of a query string, a fragment or a form body; a name may repeat.
public struct URLParameters: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// One pair.
  public struct Pair: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// How values are decoded when parsing.
  public enum Decoding: Sendable, Hashable {
    /// Kept exactly as written (Auth0.swift reads implicit-grant fragment values this way).
    case none
    /// `%XX` decoded; `+` stays a plus sign (RFC 3986, `URLComponents.queryItems`).
    case percent
    /// `%XX` decoded and `+` read as a space (`application/x-www-form-urlencoded`).
    case form
  }

  public private(set) var pairs: [Pair]

  public init(_ pairs: [(String, String)] = []) {
    self.pairs = pairs.map { Pair(name: $0.0, value: $0.1) }
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements)
  }

  /// Parses `a=1&b=2` (a leading `?` or `#` is skipped; empty segments are ignored; a segment
  /// without `=` has an empty value).
  public init(parsing text: some StringProtocol, decoding: Decoding = .percent) {
    var body = Substring(text)
    if body.first == "?" || body.first == "#" { body = body.dropFirst() }
    self.pairs = body.split(separator: "&", omittingEmptySubsequences: true).map { segment in
      let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = parts[0]
      let value = parts.count > 1 ? parts[1] : ""
      switch decoding {
      case .none: return Pair(name: String(name), value: String(value))
      case .percent: return Pair(name: PercentEncoding.decode(name), value: PercentEncoding.decode(value))
      case .form:
        return Pair(
          name: PercentEncoding.decode(name, plusAsSpace: true),
          value: PercentEncoding.decode(value, plusAsSpace: true))
      }
    }
  }

  /// The parameters of a URL's query.
  public static func query(of url: String, decoding: Decoding = .percent) -> URLParameters {
    URLParameters(parsing: URLParts.split(url).query ?? "", decoding: decoding)
  }

  /// The parameters of a URL's fragment, as the legacy implicit grant returns tokens.
  public static func fragment(of url: String, decoding: Decoding = .percent) -> URLParameters {
    URLParameters(parsing: URLParts.split(url).fragment ?? "", decoding: decoding)
  }

  /// The first value for `name`, or nil. Setting replaces the first pair of that name (appending
  /// when there is none) and removes the others; nil removes them all.
  public subscript(name: String) -> String? {
    get { pairs.first { $0.name == name }?.value }
    set {
      guard let newValue else {
        pairs.removeAll { $0.name == name }
        return
      }
      if let first = pairs.firstIndex(where: { $0.name == name }) {
        pairs[first].value = newValue
        let kept = pairs.enumerated().filter { $0.offset <= first || $0.element.name != name }
        pairs = kept.map(\.element)
      } else {
        pairs.append(Pair(name: name, value: newValue))
      }
    }
  }

  /// Every value for `name`, in order.
  public func values(for name: String) -> [String] {
    pairs.filter { $0.name == name }.map(\.value)
  }

  /// The names, in order, without repeats.
  public var names: [String] {
    var seen = Set<String>()
    return pairs.map(\.name).filter { seen.insert($0).inserted }
  }

  public mutating func append(_ name: String, _ value: String) {
    pairs.append(Pair(name: name, value: value))
  }

  public var isEmpty: Bool { pairs.isEmpty }
  public var count: Int { pairs.count }

  /// A query string per RFC 3986: only unreserved characters are left as they are (`+` → `%2B`,
  /// space → `%20`).
  public func queryString() -> String {
    pairs.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
  }

  /// An `application/x-www-form-urlencoded` body (space → `+`, `+` → `%2B`).
  public func formEncoded() -> String {
    pairs.map { PercentEncoding.formEncode($0.name) + "=" + PercentEncoding.formEncode($0.value) }
      .joined(separator: "&")
  }

  /// The pairs as a dictionary; for repeated names the first value wins.
  public var dictionary: [String: String] {
    Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  public func makeIterator() -> IndexingIterator<[Pair]> {
    pairs.makeIterator()
  }
}
