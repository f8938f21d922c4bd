/// The pages of the opt-in login styles (`OtherLoginPageRoutes`). Every value that came from a
/// request is HTML-escaped.
enum OtherLoginPages {
  static let missingIdentifier = "Please enter who you are."
  static let unknownUser = "No such user."
  static let missingCredentials = "Send a JSON object with \"username\" and \"password\"."
  static let unknownContinuation = AuthorizeError(
    code: "invalid_request",
    description:
      "the continue parameter names no login of this browser (unknown, used, expired, or signed in elsewhere)")

  /// One field that names the user (`sub`, …) and no password.
  static func identify(transaction: LoginTransaction, field: String, error: String? = nil) -> String {
    let action = "/u/identify?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    return LoginPages.page(
      title: "Sign in", kind: "identify",
      body: """
        <h1>Sign in</h1>
        <p>Who are you?</p>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="identify-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          <label for="\(HTML.escape(field))">Subject</label>
          <input type="text" id="\(HTML.escape(field))" name="\(HTML.escape(field))" required>
          <button type="submit" name="action" value="sign-in">Sign in</button>
        </form>
        """)
  }

  /// A single-page app: no form in the HTML, a spinner in the alert region until the inline
  /// script (no outside fetches) renders the form; the form posts JSON to `/api/auth/`, then the
  /// browser repeats the authorization request (`return_to`) with `continue=`.
  static let app = """
    <!DOCTYPE html>
    <html lang="en">
    <head><meta charset="utf-8"><meta name="authflow-page" content="login-app"><title>Sign in</title></head>
    <body data-page="login-app">
    <main id="app">
      <div id="status" class="spinner" role="alert" aria-busy="true">Loading...</div>
    </main>
    <noscript>This sign-in page needs JavaScript.</noscript>
    <script>
    (function () {
      "use strict";
      var returnTo = new URLSearchParams(window.location.search).get("return_to") || "";
      var app = document.getElementById("app");

      function field(form, type, name, label, autocomplete) {
        var caption = document.createElement("label");
        caption.htmlFor = name;
        caption.textContent = label;
        var input = document.createElement("input");
        input.type = type;
        input.id = name;
        input.name = name;
        input.required = true;
        input.autocomplete = autocomplete;
        form.appendChild(caption);
        form.appendChild(input);
        return input;
      }

      function render(error) {
        app.textContent = "";
        var heading = document.createElement("h1");
        heading.textContent = "Sign in";
        app.appendChild(heading);
        if (error) {
          var alert = document.createElement("div");
          alert.id = "error-message";
          alert.setAttribute("role", "alert");
          alert.textContent = error;
          app.appendChild(alert);
        }
        var form = document.createElement("form");
        form.id = "login-app-form";
        var username = field(form, "email", "username", "Email address", "username");
        var password = field(form, "password", "password", "Password", "current-password");
        var button = document.createElement("button");
        button.type = "submit";
        button.textContent = "Continue";
        form.appendChild(button);
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          button.disabled = true;
          signIn(username.value, password.value);
        });
        app.appendChild(form);
      }

      function signIn(username, password) {
        fetch("/api/auth/", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "Accept": "application/json" },
          body: JSON.stringify({ username: username, password: password })
        }).then(function (response) {
          return response.json().then(function (body) { return { ok: response.ok, body: body }; });
        }).then(function (result) {
          if (!result.ok) {
            render(result.body.error_description || "Sign-in failed.");
          } else if (returnTo.indexOf("/authorize?") !== 0) {
            render("This page was opened without an authorization request to return to.");
          } else {
            window.location.assign(returnTo + "&continue=" + encodeURIComponent(result.body["continue"]));
          }
        }).catch(function () {
          render("The sign-in service could not be reached.");
        });
      }

      render(null);
    })();
    </script>
    </body>
    </html>
    """
}
