/// The Universal Login pages of passwordless connections (`/authorize?connection=email|sms`): the
/// address page, then the code page. Every value that came from a request is HTML-escaped.
enum PasswordlessPages {
  /// The email or phone number page.
  static func address(
    transaction: LoginTransaction, clientName: String, sms: Bool, error: String? = nil, value: String? = nil
  ) -> String {
    let action =
      "\(UniversalLoginPasswordlessRoutes.addressPath)?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let field =
      sms
      ? """
      <label for="phone_number">Phone number</label>
        <input type="tel" id="phone_number" name="phone_number" autocomplete="tel" placeholder="+14155550100" value="\(HTML.escape(value ?? ""))" required>
      """
      : """
      <label for="email">Email address</label>
        <input type="email" id="email" name="email" autocomplete="email" value="\(HTML.escape(value ?? transaction.request.loginHint ?? ""))" required>
      """
    return LoginPages.page(
      title: "Log in | \(clientName)", kind: "passwordless",
      body: """
        <h1>Welcome</h1>
        <p>\(sms ? "Enter your phone number" : "Enter your email address") to receive a code and continue to \(HTML.escape(clientName)).</p>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="passwordless-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          \(field)
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        """)
  }

  /// The code page.
  static func code(
    transaction: LoginTransaction, address: String, sms: Bool, error: String? = nil
  ) -> String {
    let action =
      "\(UniversalLoginPasswordlessRoutes.codePath)?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    return LoginPages.page(
      title: sms ? "Verify your phone" : "Verify your email", kind: "passwordless-code",
      body: """
        <h1>\(sms ? "Verify Your Phone" : "Verify Your Email")</h1>
        <p>We've sent \(sms ? "a text message" : "an email") with your code to <span id="address">\(HTML.escape(address))</span>.</p>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="passwordless-challenge-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          <label for="code">Enter the code</label>
          <input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        """)
  }
}

/// Universal Login messages of the passwordless pages (the code errors are the token endpoint's,
/// docs/protocol.md §3.7).
extension LoginMessages {
  static let invalidEmail = "Please enter a valid email address."
  static let invalidPhone = "Please enter a valid phone number in international format (+14155550100)."
  static let missingCode = "Please enter the code we sent you."
  static let wrongEmailCode = "Wrong email or verification code."
  static let wrongPhoneCode = "Wrong phone number or verification code."
  static let tooManyCodeAttempts = "You've reached the maximum number of attempts. Please try to login again."
}
