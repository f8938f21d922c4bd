/// The `/activate` pages of the device flow. Every value that came from a request is HTML-escaped.
enum DeviceFlowPages {
  /// The user-code form.
  static func activate(_ activation: DeviceActivation, userCode: String? = nil, error: String? = nil) -> String {
    let action = "/activate?state=\(HTML.escape(FormEncoding.escape(activation.id)))"
    return LoginPages.page(
      title: "Activate your device", kind: "device-activation",
      body: """
        <h1>Device Activation</h1>
        <p>Enter the code displayed on your device.</p>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="activate-form">
          <input type="hidden" name="state" value="\(HTML.escape(activation.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(activation.csrf))">
          <label for="user_code">Code</label>
          <input type="text" id="user_code" name="user_code" autocomplete="off" value="\(HTML.escape(userCode ?? ""))" required>
          <button type="submit" name="action" value="continue">Continue</button>
        </form>
        """)
  }

  /// What the device asks for, with the code to compare, and the two choices.
  static func confirm(_ activation: DeviceActivation, authorization: DeviceAuthorization, clientName: String) -> String
  {
    let action = "/activate/confirm?state=\(HTML.escape(FormEncoding.escape(activation.id)))"
    let scopes = authorization.scope.map { "<li>\(HTML.escape($0))</li>" }.joined()
    return LoginPages.page(
      title: "Device Confirmation", kind: "device-confirmation",
      body: """
        <h1>Device Confirmation</h1>
        <p>Please confirm this is the code displayed on your device: <strong id="user-code">\(HTML.escape(authorization.userCode))</strong></p>
        <p><span id="client-name">\(HTML.escape(clientName))</span> is requesting access.</p>
        <ul id="scopes">\(scopes)</ul>
        <form method="POST" action="\(action)" id="device-confirm-form">
          <input type="hidden" name="state" value="\(HTML.escape(activation.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(activation.csrf))">
          <button type="submit" name="action" value="confirm">Confirm</button>
          <button type="submit" name="action" value="deny">Cancel</button>
        </form>
        """)
  }

  /// The last page: the device can now get its tokens, or the request was declined.
  static func done(approved: Bool) -> String {
    let outcome = approved ? "approved" : "denied"
    let text =
      approved
      ? "Congratulations, you're all set! Your device is now ready to be used."
      : "You cancelled the request. Your device was not authorized."
    return LoginPages.page(
      title: approved ? "Device activated" : "Device not activated", kind: "device-\(outcome)",
      body:
        "<h1>\(approved ? "All set" : "Cancelled")</h1><p id=\"device-outcome\" data-outcome=\"\(outcome)\">\(text)</p>"
    )
  }
}
