/// The simulated social provider's OAuth consent page (server-rendered; values HTML-escaped).
enum SocialPages {
  /// "Authorize <app>": the account to sign in with (pre-selected by the `login` hint, matched
  /// on login or email), the scopes asked for, and Authorize / Cancel buttons.
  static func consent(
    connection: ConnectionConfig, state: String, clientName: String, scope: [String], hint: String?
  ) -> String {
    let lowered = hint?.lowercased()
    let preferred =
      connection.accounts.first { $0.login.lowercased() == lowered || $0.email?.lowercased() == lowered }
      ?? connection.accounts.first
    let options = connection.accounts.map { account in
      let selected = account.userID == preferred?.userID ? " selected" : ""
      let label = account.name.map { "\(account.login) (\($0))" } ?? account.login
      return "<option value=\"\(HTML.escape(account.userID))\"\(selected)>\(HTML.escape(label))</option>"
    }.joined(separator: "\n      ")
    let scopes = scope.map { "<li>\(HTML.escape($0))</li>" }.joined()
    let action = "/social/\(HTML.escape(FormEncoding.escape(connection.name)))/login/oauth/authorize"
    return LoginPages.page(
      title: "Authorize application | \(connection.name)", kind: "social-consent",
      body: """
        <h1>Authorize \(HTML.escape(clientName))</h1>
        <p>\(HTML.escape(clientName)) wants to access your \(HTML.escape(connection.name)) account.</p>
        <form method="POST" action="\(action)" id="\(HTML.escape(connection.name))-consent">
          <input type="hidden" name="state" value="\(HTML.escape(state))">
          <label for="account">Signed in as</label>
          <select id="account" name="account">
          \(options)
          </select>
          <ul id="scopes">\(scopes)</ul>
          <button type="submit" name="authorize" value="deny">Cancel</button>
          <button type="submit" name="authorize" value="accept">Authorize</button>
        </form>
        """)
  }
}
