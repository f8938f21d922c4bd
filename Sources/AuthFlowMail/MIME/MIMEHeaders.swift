/// The header fields of one MIME entity, unfolded, in order; names are looked up case-insensitively.
public struct MIMEHeaders: Sendable, Hashable {
  /// One unfolded header field; the value is raw (encoded-words are not decoded).
  public struct Field: Sendable, Hashable {
    /// The field name as written.
    public let name: String
    /// The unfolded value, without leading and trailing whitespace.
    public let value: String
  }

  /// Every field, in message order.
  public let fields: [Field]

  /// The first value of the field named `name` (case-insensitive), or `nil`.
  public subscript(name: String) -> String? {
    let key = name.lowercased()
    return fields.first { $0.name.lowercased() == key }?.value
  }

  /// Every value of the field named `name` (case-insensitive), in message order.
  public func values(_ name: String) -> [String] {
    let key = name.lowercased()
    return fields.filter { $0.name.lowercased() == key }.map(\.value)
  }
}

extension MIMEHeaders {
  /// Parses a header section (the bytes before the blank line); lines without a colon are skipped.
  init(parsing bytes: ArraySlice<UInt8>) {
    var fields: [Field] = []
    var name: [UInt8] = []
    var value: [UInt8] = []
    var open = false
    func close() {
      if open {
        fields.append(Field(name: MIMEBytes.string(name), value: MIMEBytes.string(MIMEBytes.trimmed(value[...]))))
      }
      open = false
    }
    for line in MIMEBytes.lines(bytes) {
      guard let first = line.first else { continue }
      if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
        if open { value.append(contentsOf: line) }
        continue
      }
      close()
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
      name = Array(MIMEBytes.trimmed(line[line.startIndex..<colon]))
      value = Array(line[(colon + 1)...])
      open = !name.isEmpty
    }
    close()
    self.fields = fields
  }
}
