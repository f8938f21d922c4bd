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

  /// The callback, reached (`stop_at: callback`): an error it carries is the page's error
  /// (`error_description`, else `error`). Its URL is kept as text: the secrets in it (the code,
  /// tokens) are registered by the transaction and masked wherever the URL is shown, so an
  /// error's parameters stay readable.
  init(callback url: String, parameters: CallbackParameters) {
    self.kind = .callback
    self.url = url
    self.fields = [:]
    self.error = parameters["error"].map { parameters["error_description"] ?? $0 }
    self.errorCode = parameters["error"]
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
      Member.url: .string(url),
    ]
    if let status { members[Member.status] = .int(status) }
    return .object(members)
  }
}
