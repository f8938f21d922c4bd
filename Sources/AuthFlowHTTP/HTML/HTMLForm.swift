/// A form of a page: where it goes, how, and its controls in document order.
public struct HTMLForm: Sendable, Hashable {
  public var id: String?
  public var name: String?
  /// `action` resolved against the document's base URL; the document URL when empty.
  public var action: String
  /// GET unless `method="post"`.
  public var method: HTTPMethod
  /// Lowercased `enctype`, `application/x-www-form-urlencoded` by default.
  public var enctype: String
  public var fields: [HTMLFormField]

  public init(
    id: String? = nil, name: String? = nil, action: String, method: HTTPMethod = .get,
    enctype: String = "application/x-www-form-urlencoded", fields: [HTMLFormField] = []
  ) {
    self.id = id
    self.name = name
    self.action = action
    self.method = method
    self.enctype = enctype
    self.fields = fields
  }

  /// The names of the fields, in order, without repeats.
  public var fieldNames: [String] {
    var seen = Set<String>()
    return fields.map(\.name).filter { !$0.isEmpty && seen.insert($0).inserted }
  }

  /// The first field with that name.
  public func field(named name: String) -> HTMLFormField? {
    fields.first { $0.name == name }
  }

  /// The hidden fields by name (CSRF tokens, `state`): the first value wins.
  public var hiddenValues: [String: String] {
    Dictionary(fields.filter(\.isHidden).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  /// True when the form has a field of that `type` (`password`, `email`, …).
  public func hasField(ofType type: String) -> Bool {
    fields.contains { $0.type == type }
  }

  /// The submit buttons, in order.
  public var submitButtons: [HTMLFormField] {
    fields.filter(\.isSubmitButton)
  }

  /// A one-line description for error messages.
  public var summary: String {
    var parts = ["form"]
    if let id { parts.append("#\(id)") }
    parts.append("\(method) \(action)")
    parts.append("fields [\(fieldNames.joined(separator: ", "))]")
    return parts.joined(separator: " ")
  }
}
