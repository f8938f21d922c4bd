import AuthFlowCore
import AuthFlowHTTP

/// A page as a step result (`page.kind`, `page.url`, `page.fields`, `page.error`).
struct PageResult: Sendable {
  var kind: PageKind
  var url: String
  /// The form's fields: name → value; hidden values (CSRF tokens) and passwords are secret.
  var fields: [String: Value]
  var error: String?
  /// An error page's code (`#error-code`), when it shows one.
  var errorCode: String?
  var status: Int?

  init(kind: PageKind, document: HTMLDocument, status: Int, profile: LoginPageProfile = LoginPageProfile()) {
    self.kind = kind
    self.url = document.url
    self.status = status
    var fields: [String: Value] = [:]
    if let form = PageKind.form(of: kind, in: document, profile: profile) ?? document.forms.first {
      for field in form.fields where !field.name.isEmpty && !field.isSubmitButton {
        let secret = field.isHidden || field.type == "password"
        fields[field.name] = secret ? Value.string(field.value).asSecret : .string(field.value)
      }
    }
    self.fields = fields
    let heading = document.errorHeading
    self.error = document.errorMessages.first ?? heading?.message
    self.errorCode = kind == .error ? document.element(id: "error-code")?.text ?? heading?.code : nil
  }

  /// The callback, reached: its URL carries the code, so it is secret.
  init(callback url: String) {
    self.kind = .callback
    self.url = url
    self.fields = [:]
  }

  /// The members of `page` in a step's result.
  enum Member {
    static let kind = "kind"
    static let url = "url"
    static let fields = "fields"
    static let error = "error"
    static let status = "status"
  }

  var value: Value {
    var members: [String: Value] = [
      Member.kind: .string(kind.rawValue), Member.fields: .object(fields),
      Member.error: error.map(Value.string) ?? .null,
      Member.url: kind == .callback ? Value.string(url).asSecret : .string(url),
    ]
    if let status { members[Member.status] = .int(status) }
    return .object(members)
  }
}
