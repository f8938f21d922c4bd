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
    let action = "/u/login?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let signup = "/u/signup?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    return page(
      title: "Log in | \(clientName)", kind: "login",
      body: """
        <h1>Welcome</h1>
        <p>Log in to continue to \(HTML.escape(clientName)).</p>
        \(noticeElement(notice))
        \(errorElement(error))
        <form method="POST" action="\(action)" id="login-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          \(challengeElement(challenge))
          <label for="username">Email address</label>
          <input type="text" id="username" name="username" autocomplete="username" value="\(HTML.escape(username ?? transaction.request.loginHint ?? ""))" required>
          <label for="password">Password</label>
          <input type="password" id="password" name="password" autocomplete="current-password" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        <p>Don't have an account? <a href="\(signup)" id="signup-link">Sign up</a></p>
        """)
  }

  /// The signup page (`screen_hint=signup`).
  static func signup(
    transaction: LoginTransaction, clientName: String, error: String? = nil, email: String? = nil,
    challenge: String? = nil, notice: String? = nil
  )
    -> String
  {
    let action = "/u/signup?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let login = "/u/login?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    return page(
      title: "Sign up | \(clientName)", kind: "signup",
      body: """
        <h1>Create Your Account</h1>
        <p>Sign up to continue to \(HTML.escape(clientName)).</p>
        \(noticeElement(notice))
        \(errorElement(error))
        <form method="POST" action="\(action)" id="signup-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          \(challengeElement(challenge))
          <label for="email">Email address</label>
          <input type="email" id="email" name="email" autocomplete="email" value="\(HTML.escape(email ?? transaction.request.loginHint ?? ""))" required>
          <label for="password">Password</label>
          <input type="password" id="password" name="password" autocomplete="new-password" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        <p>Already have an account? <a href="\(login)" id="login-link">Log in</a></p>
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
