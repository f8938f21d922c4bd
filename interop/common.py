"""What the interop clients share: the check log, and a browser that drives the mock's login form.

A general-purpose client library has no browser, so the checks play the user: follow the
redirects of `/authorize`, parse the login page's form with the standard library's HTMLParser,
fill in the credentials, and stop at the redirect to the client's callback.
"""

from urllib.parse import urljoin

import requests

from html_forms import Forms  # noqa: F401 (re-exported for the clients)

failures = []


def check(name, condition, detail=""):
    print(("ok    " if condition else "FAIL  ") + name + (f"  ({detail})" if detail and not condition else ""))
    if not condition:
        failures.append(name)


def summary():
    """Prints the outcome; the exit status (0 when every check passed)."""
    print(f"\n{'FAILED: ' + ', '.join(failures) if failures else 'all checks passed'}")
    return 1 if failures else 0


def browse_to_callback(authorize_url, redirect_uri, credentials):
    """Follows the mock's redirects, fills the login form, and returns the callback URL."""
    browser = requests.Session()
    url, method, data = authorize_url, "GET", None
    for _ in range(10):
        response = browser.request(method, url, data=data, allow_redirects=False, timeout=10)
        if response.is_redirect:
            location = urljoin(url, response.headers["Location"])
            if location.startswith(redirect_uri):
                return location
            url, method, data = location, "GET", None
            continue
        parser = Forms()
        parser.feed(response.text)
        form = next((f for f in parser.forms if "password" in f["fields"]), None)
        if form is None:
            raise RuntimeError(f"no login form at {url} (HTTP {response.status_code})")
        fields = dict(form["fields"])
        fields["username"], fields["password"] = credentials
        url, method, data = urljoin(url, form["action"] or url), form["method"].upper(), fields
    raise RuntimeError("too many redirects")
