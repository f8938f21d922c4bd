import AuthFlowCore

/// Server-rendered Universal Login pages. Every value that came from a request is HTML-escaped.
enum LoginPages {
  /// The identifier + password page.
  static func login(
    transaction: LoginTransaction, clientName: String, error: String? = nil, username: String? = nil,
    challenge: String? = nil, notice: String? = nil
  )
    -> String
  {
    credentialsPage(
      .login, transaction: transaction, clientName: clientName, error: error, value: username, challenge: challenge,
      notice: notice)
  }

  /// The signup page (`screen_hint=signup`).
  static func signup(
    transaction: LoginTransaction, clientName: String, error: String? = nil, email: String? = nil,
    challenge: String? = nil, notice: String? = nil
  )
    -> String
  {
    credentialsPage(
      .signup, transaction: transaction, clientName: clientName, error: error, value: email, challenge: challenge,
      notice: notice)
  }

  /// What tells the login page and the signup page apart: both are an identifier and a password.
  enum CredentialsScreen {
    case login, signup

    var path: String { self == .login ? "/u/login" : "/u/signup" }
    var other: CredentialsScreen { self == .login ? .signup : .login }
  }

  private static func credentialsPage(
    _ screen: CredentialsScreen, transaction: LoginTransaction, clientName: String, error: String?, value: String?,
    challenge: String?, notice: String?
  ) -> String {
    let state = "?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let login = screen == .login
    let identifier = login ? "username" : "email"
    let filled = HTML.escape(value ?? transaction.request.loginHint ?? "")
    return page(
      title: "\(login ? "Log in" : "Sign up") | \(clientName)", kind: login ? "login" : "signup",
      body: """
        <h1>\(login ? "Welcome" : "Create Your Account")</h1>
        <p>\(login ? "Log in" : "Sign up") to continue to \(HTML.escape(clientName)).</p>
        \(noticeElement(notice))
        \(errorElement(error))
        <form method="POST" action="\(screen.path)\(state)" id="\(login ? "login" : "signup")-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          \(challengeElement(challenge))
          <label for="\(identifier)">Email address</label>
          <input type="\(login ? "text" : "email")" id="\(identifier)" name="\(identifier)" autocomplete="\(identifier)" value="\(filled)" required>
          <label for="password">Password</label>
          <input type="password" id="password" name="password" autocomplete="\(login ? "current" : "new")-password" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        <p>\(login ? "Don't have an account?" : "Already have an account?") <a href="\(screen.other.path)\(state)" id="\(login ? "signup" : "login")-link">\(login ? "Sign up" : "Log in")</a></p>
        """)
  }

  /// An error page: used when the mock must not redirect (unknown client, redirect_uri mismatch).
  static func error(code: String, description: String) -> String {
    page(
      title: "Error", kind: "error",
      body: """
        <h1>Oops!, something went wrong</h1>
        <p id="error-code">\(HTML.escape(code))</p>
        <p id="error-message">\(HTML.escape(description))</p>
        """)
  }

  /// The page after `/v2/logout` when there is nowhere to go.
  static func loggedOut() -> String {
    page(title: "Logged out", kind: "logout", body: "<h1>You have been logged out.</h1>")
  }

  /// The simulated CAPTCHA of Bot Detection: a field the page solves itself (see `BotDetection`).
  static func challengeElement(_ challenge: String?) -> String {
    guard let challenge else { return "" }
    return
      "<div id=\"captcha\" data-challenge=\"simulated\"><input type=\"hidden\" name=\"captcha\" value=\"\(HTML.escape(challenge))\"></div>"
  }

  /// An informational line above the form (an invitation's "X has invited you to join Y.").
  static func noticeElement(_ notice: String?) -> String {
    guard let notice else { return "" }
    return "<p id=\"notice\">\(HTML.escape(notice))</p>"
  }

  static func errorElement(_ error: String?) -> String {
    guard let error else { return "" }
    return "<div id=\"error-message\" role=\"alert\">\(HTML.escape(error))</div>"
  }

  static func page(title: String, kind: String, body: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head><meta charset="utf-8"><meta name="authflow-page" content="\(kind)"><title>\(HTML.escape(title))</title></head>
    <body data-page="\(kind)">
    \(body)
    </body>
    </html>
    """
  }
}

/// HTML text and attribute escaping.
enum HTML {
  static func escape(_ text: String) -> String {
    MarkupEscaping.html(text)
  }
}
