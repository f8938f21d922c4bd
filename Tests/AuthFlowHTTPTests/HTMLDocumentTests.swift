import AuthFlowHTTP
import Testing

@Suite struct HTMLDocumentTests {
  static let messy = """
    <HTML><HEAD><TITLE>Sign in &amp; continue</TITLE>
    <base href="https://tenant.example.com/u/">
    <script>var x = "<form>not a form</form>";</script><style>.error{}</style></HEAD>
    <BODY>
    <h1>Welcome   back</h1>
    <div id="error-message" class="error" role="alert">Wrong email or password.</div>
    <p hidden>Secret hint</p>
    <FORM ID="login" ACTION="login?state=abc" METHOD="POST">
      <INPUT TYPE="hidden" NAME="state" VALUE="abc&amp;def">
      <input type=email name=username value="">
      <input type="password" name="password">
      <input type="checkbox" name="remember" checked>
      <input type="radio" name="mode" value="a"><input type="radio" name="mode" value="b" checked>
      <select name="country"><option value="fr">France<option value="us" selected>USA</select>
      <select name="lang"><optgroup label="x"><option>en<option>de</optgroup></select>
      <textarea name="note">
    line one &lt;b&gt;</textarea>
      <input type="text" name="off" disabled value="x">
      <button type="submit" name="action" value="default">Continue</button>
      <button type="submit" name="action" value="back">Go back</button>
      <button type="button" name="noop">Noop</button>
    <!-- the form is never closed -->
    <p>Don't have an account? <a href="/signup?x=1&amp;y=2">Sign <b>up</b></a></p>
    <input name="outside" value="o" form="second">
    <form id="second" action=""><input name="q" value="z"></form>
    </BODY></HTML>
    """

  let document = HTMLDocument.parse(Array(messy.utf8), url: "https://tenant.example.com/u/login?state=abc")

  @Test func titleTextAndErrors() {
    #expect(document.title == "Sign in & continue")
    #expect(document.baseURL == "https://tenant.example.com/u/")
    #expect(document.text.hasPrefix("Welcome back Wrong email or password. Continue Go back Noop"))
    #expect(!document.text.contains("Secret hint"))
    #expect(!document.text.contains("not a form"))
    #expect(document.text.contains("Don't have an account? Sign up"))
    #expect(document.errorMessages == ["Wrong email or password."])
    #expect(document.elements(matching: "[role=alert]").map(\.id) == ["error-message"])
    #expect(document.elements(matching: "div.error#error-message").count == 1)
    #expect(document.elements(matching: "h1").first?.text == "Welcome back")
    #expect(document.snippet(maxLength: 20) == "Welcome back Wrong…")
  }

  @Test func linksResolveAgainstTheBase() {
    #expect(document.links == [HTMLLink(url: "https://tenant.example.com/signup?x=1&y=2", text: "Sign up")])
  }

  @Test func formsAndFieldsInDocumentOrder() throws {
    #expect(document.forms.count == 2)
    let login = try document.form(.id("login"))
    #expect(login.action == "https://tenant.example.com/u/login?state=abc")
    #expect(login.method == .post)
    #expect(
      login.fieldNames == [
        "state", "username", "password", "remember", "mode", "country", "lang", "note", "off", "action", "noop",
      ])
    #expect(login.hiddenValues == ["state": "abc&def"])
    #expect(login.field(named: "remember")?.checked == true)
    #expect(login.field(named: "remember")?.value == "on")
    #expect(login.field(named: "country")?.value == "us")
    #expect(login.field(named: "lang")?.options.map(\.value) == ["en", "de"])
    #expect(login.field(named: "note")?.value == "line one <b>")
    #expect(login.submitButtons.map(\.value) == ["default", "back"])

    let second = try document.form(.id("second"))
    #expect(second.action == "https://tenant.example.com/u/login?state=abc")
    #expect(second.fields.map(\.name) == ["outside", "q"])
  }

  @Test func formSelection() throws {
    #expect(try document.form(.containingFieldOfType("password")).id == "login")
    #expect(try document.form(.containingFields(["q"])).id == "second")
    #expect(try document.form(.actionContaining("state=abc")).id == "login")
    let error = #expect(throws: FormError.self) { try document.form(.containingFields(["otp"])) }
    #expect(error?.kind == .noMatchingForm)
    #expect(
      error?.message.contains("form #second GET https://tenant.example.com/u/login?state=abc fields [outside, q]")
        == true)
  }

  @Test func defaultSubmissionUsesTheFirstSubmitButton() throws {
    let form = try document.form(.id("login"))
      .filled(with: ["username": "alice@example.com", "password": "p@ss w+rd&=", "mode": "a", "remember": "false"])
    let request = try form.submission()
    #expect(request.method == .post)
    #expect(request.url == "https://tenant.example.com/u/login?state=abc")
    #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(
      request.bodyText
        == "state=abc%26def&username=alice%40example.com&password=p%40ss+w%2Brd%26%3D&mode=a&country=us&lang=en"
        + "&note=line+one+%3Cb%3E&action=default")
    let back = try form.submission(submitter: "Go back")
    #expect(back.bodyText.hasSuffix("&action=back"))
  }

  @Test func getSubmissionReplacesTheQuery() throws {
    let request = try document.form(.id("second")).filled(with: ["q": "a b"]).submission()
    #expect(request.method == .get)
    #expect(request.url == "https://tenant.example.com/u/login?outside=o&q=a+b")
    #expect(request.body.isEmpty)
  }

  @Test func fillingErrorsNameWhatTheFormHas() throws {
    let form = try document.form(.id("login"))
    let unknown = #expect(throws: FormError.self) { try form.filled(with: ["pasword": "x"]) }
    #expect(
      unknown?.message
        == "the form has no field 'pasword'; did you mean 'password'? (fields: state, username, password, remember, "
        + "mode, country, lang, note, off, action, noop)")
    let option = #expect(throws: FormError.self) { try form.filled(with: ["country": "de"]) }
    #expect(option?.message == "field 'country' has no option 'de' (options: fr, us)")
    let radio = #expect(throws: FormError.self) { try form.filled(with: ["mode": "c"]) }
    #expect(radio?.kind == .unknownOption)
    let submitter = #expect(throws: FormError.self) { try form.submission(submitter: "Log in") }
    #expect(
      submitter?.message
        == "the form has no submit button 'Log in' (buttons: \"Continue\" (action=default), \"Go back\" (action=back))")
  }

  @Test func emptyAndBinaryInputParse() {
    #expect(HTMLDocument.parse([], url: "https://x/").forms.isEmpty)
    let garbage = HTMLDocument.parse([0xFF, 0xFE, 0x00, 0x3C], url: "https://x/")
    #expect(garbage.forms.isEmpty)
  }

  @Test func parsingReleasesLibXML2Memory() {
    // Many parses in a loop: a leak would show in tools, a double free would crash here, and memory
    // reused too early would change what a later parse finds.
    let first = HTMLDocument.parse(Array(Self.messy.utf8), url: "https://tenant.example.com/")
    #expect(!first.forms.isEmpty)
    for _ in 0..<200 {
      let again = HTMLDocument.parse(Array(Self.messy.utf8), url: "https://tenant.example.com/")
      #expect(again.forms == first.forms)
    }
  }
}
