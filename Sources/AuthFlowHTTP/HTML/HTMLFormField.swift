/// A control of a form, in document order.
public struct HTMLFormField: Sendable, Hashable {
  /// The element a control is.
  public enum Control: String, Sendable, Hashable {
    case input, select, textarea, button
  }

  /// An option of a `<select>`.
  public struct Option: Sendable, Hashable {
    public var value: String
    public var text: String
    public var selected: Bool

    public init(value: String, text: String, selected: Bool) {
      self.value = value
      self.text = text
      self.selected = selected
    }
  }

  public var control: Control
  /// Lowercased: the input's type (`text` by default), the button's (`submit` by default),
  /// `select-one`/`select-multiple`, or `textarea`.
  public var type: String
  public var name: String
  /// The current value (for a select, the first selected option's).
  public var value: String
  /// For checkboxes and radio buttons.
  public var checked: Bool
  public var disabled: Bool
  public var id: String?
  /// For a select.
  public var options: [Option]
  /// A button's text, or a submit input's value.
  public var label: String?
  /// The form `id` named by a `form` attribute, for a control outside its form.
  public var formOwner: String?

  public init(
    control: Control, type: String, name: String, value: String = "", checked: Bool = false,
    disabled: Bool = false, id: String? = nil, options: [Option] = [], label: String? = nil,
    formOwner: String? = nil
  ) {
    self.control = control
    self.type = type
    self.name = name
    self.value = value
    self.checked = checked
    self.disabled = disabled
    self.id = id
    self.options = options
    self.label = label
    self.formOwner = formOwner
  }

  /// True for buttons that submit the form: `<button>` of type submit, `<input type=submit|image>`.
  public var isSubmitButton: Bool {
    switch control {
    case .button: return type == "submit"
    case .input: return type == "submit" || type == "image"
    case .select, .textarea: return false
    }
  }

  public var isHidden: Bool { control == .input && type == "hidden" }

  /// True for checkboxes and radio buttons.
  public var isCheckable: Bool { control == .input && (type == "checkbox" || type == "radio") }

  /// The entries this control adds to the form data set when it is not the submitter
  /// (HTML "constructing the entry list", without files).
  var entries: [(String, String)] {
    guard !name.isEmpty, !disabled else { return [] }
    switch control {
    case .button: return []
    case .select: return options.filter(\.selected).map { (name, $0.value) }
    case .textarea: return [(name, value)]
    case .input:
      switch type {
      case "submit", "image", "reset", "button", "file": return []
      case "checkbox", "radio": return checked ? [(name, value)] : []
      default: return [(name, value)]
      }
    }
  }
}
