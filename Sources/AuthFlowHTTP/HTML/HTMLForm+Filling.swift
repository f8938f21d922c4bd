extension HTMLForm {
  /// The form with field values set by name, every other field (hidden CSRF tokens included) as it
  /// was. A text-like field takes the value; a checkbox is checked unless the value is `false`,
  /// `off` or empty; a radio group and a select pick the option with that value.
  ///
  /// Throws when a name is not a field of the form, or an option does not exist; the message lists
  /// what the form has.
  public func filled(with values: [String: String]) throws(FormError) -> HTMLForm {
    var form = self
    for name in values.keys.sorted() {
      guard let value = values[name] else { continue }
      try form.fill(name, with: value)
    }
    return form
  }

  private mutating func fill(_ name: String, with value: String) throws(FormError) {
    let indices = fields.indices.filter { fields[$0].name == name && !fields[$0].isSubmitButton }
    guard let first = indices.first else {
      throw .unknownField(name, available: fieldNames)
    }
    switch (fields[first].control, fields[first].type) {
    case (.input, "radio"):
      guard indices.contains(where: { fields[$0].value == value }) else {
        throw .unknownOption(field: name, value: value, options: indices.map { fields[$0].value })
      }
      for index in indices where fields[index].type == "radio" {
        fields[index].checked = fields[index].value == value
      }
    case (.input, "checkbox"):
      fields[first].checked = !["", "false", "off", "0", "no"].contains(value.lowercased())
    case (.select, _):
      let options = fields[first].options
      guard options.contains(where: { $0.value == value }) else {
        throw .unknownOption(field: name, value: value, options: options.map(\.value))
      }
      for option in options.indices {
        fields[first].options[option].selected = options[option].value == value
      }
      fields[first].value = value
    default:
      fields[first].value = value
    }
  }
}
