"""Drives the flows of FLOWS.md against the running provider (conformance/allauth/start) and checks the
mail it sends, with an SMTP sink (aiosmtpd) on 127.0.0.1:$AUTHFLOW_ALLAUTH_SMTP_PORT (default 2525): the
port the provider was started with. Nothing else may listen there. Run with the provider's virtualenv:

    conformance/allauth/start
    conformance/.state-allauth/venv/bin/python conformance/allauth/check.py [-v]
    conformance/allauth/stop

Exit 0 when every flow went as FLOWS.md says, 1 when not. -v prints each mail."""

import base64
import hashlib
import html
import json
import os
import queue
import re
import secrets
import sys
import time
import urllib.parse as up
from email import message_from_bytes, policy

import jwt
import requests
from aiosmtpd.controller import Controller

PORT = os.environ.get("AUTHFLOW_ALLAUTH_PORT", "8120")
BASE = f"http://127.0.0.1:{PORT}"
SMTP_PORT = int(os.environ.get("AUTHFLOW_ALLAUTH_SMTP_PORT", "2525"))
REDIRECT = "https://app.example.com/callback"
CODE = re.compile(r"^([BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4})$", re.M)
VERBOSE = "-v" in sys.argv
mail: "queue.Queue[tuple[str, list[str], bytes]]" = queue.Queue()
failures: list[str] = []


class Sink:
    async def handle_DATA(self, server, session, envelope):
        mail.put((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def next_mail(to: str, subject: str) -> str:
    """The next message to `to`; checks its envelope and headers and returns the text body."""
    deadline = time.monotonic() + 15
    while True:
        try:
            sender, rcpts, raw = mail.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            raise SystemExit(f"FAIL no mail to {to} within 15s") from None
        if to in rcpts:
            break
    msg = message_from_bytes(raw, policy=policy.default)
    if VERBOSE:
        print(raw.decode())
    check(sender == "no-reply@allauth.test" and msg["From"] == "no-reply@allauth.test", f"mail from no-reply@allauth.test ({subject})")
    check(msg["Subject"] == f"[127.0.0.1:{PORT}] {subject}", f"subject {msg['Subject']!r}")
    check(msg.get_content_type() == "text/plain" and not msg.is_multipart(), "single text/plain part")
    check(msg["Content-Transfer-Encoding"] == "7bit", "7bit")
    return msg.get_content().replace("\r\n", "\n")


def csrf(text: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)


def post_form(s: requests.Session, url: str, **fields) -> requests.Response:
    """GET the page, POST its form back with the CSRF token and `fields`; no redirects followed."""
    page = s.get(BASE + url)
    check(page.status_code == 200, f"GET {url} 200")
    return s.post(page.url, data={"csrfmiddlewaretoken": csrf(page.text), **fields}, allow_redirects=False)


def code_in(body: str) -> str:
    m = CODE.search(body)
    check(m is not None, "code XXXX-XXXX on a line of its own")
    return m.group(1) if m else ""


def logged_in(s: requests.Session) -> bool:
    return s.get(BASE + "/accounts/email/", allow_redirects=False).status_code == 200


def flow_signup(addr: str, password: str) -> None:
    s = requests.Session()
    r = post_form(s, "/accounts/signup/", email=addr, password1=password)
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/confirm-email/", "signup -> 302 /accounts/confirm-email/")
    code = code_in(next_mail(addr, "Please Confirm Your Email Address"))
    r = post_form(s, "/accounts/confirm-email/", code=code)
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/email/", "confirm-email -> 302 /accounts/email/")
    check(logged_in(s), "logged in after email verification")


def flow_login_code(addr: str) -> None:
    s = requests.Session()
    r = post_form(s, "/accounts/login/code/", email=addr)
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/login/code/confirm/", "login/code -> 302 confirm")
    code = code_in(next_mail(addr, "Sign-In Code"))
    r = post_form(s, "/accounts/login/code/confirm/", code=code.replace("-", "").lower())
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/email/", "login/code/confirm (code lower case, no dash) -> 302")
    check(logged_in(s), "logged in by code")


def flow_reset(addr: str, new_password: str) -> None:
    s = requests.Session()
    r = post_form(s, "/accounts/password/reset/", email=addr)
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/password/reset/confirm/", "password/reset -> 302 confirm")
    code = code_in(next_mail(addr, "Password Reset Code"))
    r = post_form(s, "/accounts/password/reset/confirm/", code=code)
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/password/reset/complete/", "reset confirm -> 302 complete")
    r = post_form(s, "/accounts/password/reset/complete/", password1=new_password, password2=new_password)
    check(r.status_code == 302 and r.headers["Location"] == "/accounts/password/reset/done/", "reset complete -> 302 done")
    check(not logged_in(s), "not logged in after the reset")
    s = requests.Session()
    r = post_form(s, "/accounts/login/", login=addr, password=new_password)
    check(r.status_code == 302 and logged_in(s), "login with the new password")


def flow_oidc(client_id: str, by_code: bool) -> None:
    what = f"OIDC {client_id} ({'login by code' if by_code else 'password'})"
    s = requests.Session()
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    nonce = secrets.token_urlsafe(8)
    query = up.urlencode({"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "scope": "openid profile email",
                          "state": "st", "nonce": nonce, "code_challenge": challenge, "code_challenge_method": "S256"})
    config = requests.get(BASE + "/.well-known/openid-configuration").json()
    r = s.get(f"{config['authorization_endpoint']}?{query}", allow_redirects=False)
    login = r.headers.get("Location", "")
    check(r.status_code == 302 and login.startswith("/accounts/login/?next=/identity/o/authorize"), f"{what}: authorize -> 302 login")
    next_ = up.parse_qs(up.urlsplit(login).query)["next"][0]
    if by_code:
        page = s.get(BASE + login)
        link = html.unescape(re.search(r'href="(/accounts/login/code/\?next=[^"]*)"', page.text).group(1))
        r = post_form(s, link, email="alice@example.com", next=next_)
        code = code_in(next_mail("alice@example.com", "Sign-In Code"))
        r = post_form(s, r.headers["Location"], code=code, next=next_)
    else:
        r = post_form(s, login, login="alice@example.com", password="Alice-Passw0rd!", next=next_)
    check(r.status_code == 302 and r.headers["Location"] == next_, f"{what}: login -> 302 back to authorize")
    r = s.get(BASE + r.headers["Location"], allow_redirects=False)
    callback = r.headers.get("Location", "")
    check(r.status_code == 302 and callback.startswith(REDIRECT + "?code="), f"{what}: authorize -> 302 redirect_uri with code (no consent)")
    params = dict(up.parse_qsl(up.urlsplit(callback).query))
    check(params.get("state") == "st", f"{what}: state")
    data = {"grant_type": "authorization_code", "code": params.get("code", ""), "redirect_uri": REDIRECT, "code_verifier": verifier}
    auth = ("allauth-web", "allauth-web-secret") if client_id == "allauth-web" else None
    if auth is None:
        data["client_id"] = client_id
    r = requests.post(config["token_endpoint"], data=data, auth=auth)
    check(r.status_code == 200, f"{what}: token {r.status_code}")
    tokens = r.json()
    key = jwt.PyJWKClient(config["jwks_uri"]).get_signing_key_from_jwt(tokens["id_token"]).key
    claims = jwt.decode(tokens["id_token"], key, algorithms=["RS256"], audience=client_id, issuer=BASE)
    check(claims.get("nonce") == nonce and claims.get("email") == "alice@example.com" and claims.get("email_verified") is True,
          f"{what}: ID token {json.dumps({k: claims.get(k) for k in ('iss', 'aud', 'sub', 'email', 'email_verified')})}")
    r = requests.post(config["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                                                      **({} if auth else {"client_id": client_id})}, auth=auth)
    check(r.status_code == 200 and "id_token" in r.json(), f"{what}: refresh_token grant")


def main() -> int:
    controller = Controller(Sink(), hostname="127.0.0.1", port=SMTP_PORT)
    controller.start()
    try:
        addr = f"user-{secrets.token_hex(4)}@example.com"
        flow_signup(addr, "First-Passw0rd!")
        flow_login_code(addr)
        flow_reset(addr, "Second-Passw0rd!")
        flow_oidc("allauth-public", by_code=False)
        flow_oidc("allauth-public", by_code=True)
        flow_oidc("allauth-web", by_code=False)
    finally:
        controller.stop()
    print(f"{len(failures)} failure(s)" if failures else "all flows as in FLOWS.md")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
