/// Header fields in the order they were written, with case-insensitive lookup by name.
public struct HTTPHeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header line.
  public struct Field: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Every field, in order; a name may repeat (`Set-Cookie`).
  public private(set) var fields: [Field]

  /// Creates header fields from name/value pairs, keeping their order.
  public init(_ pairs: [(String, String)] = []) {
    self.fields = pairs.map { Field(name: $0.0, value: $0.1) }
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements)
  }

  /// The first value of the named field, or nil. Setting replaces every field of that name
  /// (in place of the first one); setting nil removes them.
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
    set {
      guard let newValue else {
        remove(name)
        return
      }
      if let first = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
        fields[first].value = newValue
        var index = fields.index(after: first)
        while index < fields.endIndex {
          if fields[index].name.caseInsensitiveEquals(name) {
            fields.remove(at: index)
          } else {
            index = fields.index(after: index)
          }
        }
      } else {
        fields.append(Field(name: name, value: newValue))
      }
    }
  }

  /// Every value of the named field, in order.
  public func values(for name: String) -> [String] {
    fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
  }

  /// True when a field of that name is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { $0.name.caseInsensitiveEquals(name) }
  }

  /// Appends a field, keeping any others of the same name.
  public mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Removes every field of that name.
  public mutating func remove(_ name: String) {
    fields.removeAll { $0.name.caseInsensitiveEquals(name) }
  }

  public var count: Int { fields.count }
  public var isEmpty: Bool { fields.isEmpty }

  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }
}

extension String {
  /// ASCII case-insensitive equality, as header names and HTML tag names compare.
  func caseInsensitiveEquals(_ other: String) -> Bool {
    let left = utf8
    let right = other.utf8
    guard left.count == right.count else { return false }
    return zip(left, right).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
  }
}

extension UInt8 {
  var asciiLowercased: UInt8 {
    (0x41...0x5A).contains(self) ? self + 0x20 : self
  }
}
