/// The organization pages of Universal Login: the prompt before the login (`/u/organization`) and
/// the picker after it (`/u/organization-selection`). Both ask for an organization's name in the
/// same form. Every value that came from a request is HTML-escaped.
enum OrganizationPages {
  /// The prompt page.
  static func prompt(
    _ transaction: LoginTransaction, clientName: String, error: String? = nil, value: String? = nil
  ) -> String {
    LoginPages.page(
      title: "Enter your organization | \(clientName)", kind: "organization",
      body: """
        <h1>Enter Your Organization</h1>
        <p>Enter your organization name to continue to \(HTML.escape(clientName)).</p>
        \(LoginPages.errorElement(error))
        \(form("organization-form", path: "/u/organization", transaction, value: value))
        """)
  }

  /// The picker: the user's organizations, and the form.
  static func selection(
    _ transaction: LoginTransaction, clientName: String, organizations: [OrganizationConfig], error: String? = nil,
    value: String? = nil
  ) -> String {
    let items = organizations.map { organization in
      "<li data-organization=\"\(HTML.escape(organization.name))\">\(HTML.escape(organization.displayName)) "
        + "(<code>\(HTML.escape(organization.name))</code>)</li>"
    }
    return LoginPages.page(
      title: "Select your organization | \(clientName)", kind: "organization-selection",
      body: """
        <h1>Select Your Organization</h1>
        <p>Choose the organization to continue to \(HTML.escape(clientName)) with.</p>
        <ul id="organizations">\(items.joined())</ul>
        \(LoginPages.errorElement(error))
        \(form("organization-selection-form", path: OrganizationSelectionRoutes.path, transaction, value: value))
        """)
  }

  /// The form both pages post: the organization's name (or id).
  private static func form(_ id: String, path: String, _ transaction: LoginTransaction, value: String?) -> String {
    let action = "\(path)?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let field = OrganizationPromptRoutes.field
    return """
      <form method="POST" action="\(action)" id="\(id)">
        <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
        <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
        <label for="\(field)">Organization name</label>
        <input type="text" id="\(field)" name="\(field)" autocomplete="organization" value="\(HTML.escape(value ?? ""))" required>
        <button type="submit" name="action" value="default">Continue</button>
      </form>
      """
  }
}
