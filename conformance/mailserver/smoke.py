#!/usr/bin/env python3
"""End-to-end check of the loopback mail system that conformance/mailserver/start runs, with the
Python standard library only (smtplib, imaplib, ssl) as third-party clients:

  1. SMTP to 127.0.0.1:$AUTHFLOW_MTA_PORT: a message with a 6-digit code to qa+<run>@test.example.com
     is accepted; a recipient at another domain is refused (no relay).
  2. IMAP on $AUTHFLOW_IMAP_PORT with STARTTLS, and IMAPS on $AUTHFLOW_IMAPS_PORT, both verifying the
     server certificate against $AUTHFLOW_MAILSERVER_STATE/tls/cert.pem (hostname 127.0.0.1):
     LOGIN qa, SELECT INBOX, UID SEARCH TO "<address>", UID SEARCH SINCE <today>,
     UID FETCH <uid> (BODY.PEEK[]) contains the code. A wrong password gets NO.
  3. Prints the delivery time (SMTP accepted -> visible to UID SEARCH) and, with --transcript, the
     IMAP conversation (password masked).

Exit 0 when everything holds, 1 otherwise.
"""
import argparse
import datetime
import email.utils
import imaplib
import os
import random
import smtplib
import ssl
import statistics
import string
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STATE = os.environ.get("AUTHFLOW_MAILSERVER_STATE", os.path.join(os.path.dirname(HERE), ".state-mailserver"))
IMAP_PORT = int(os.environ.get("AUTHFLOW_IMAP_PORT", "1143"))
IMAPS_PORT = int(os.environ.get("AUTHFLOW_IMAPS_PORT", "1993"))
MTA_PORT = int(os.environ.get("AUTHFLOW_MTA_PORT", "2526"))
USER, PASSWORD = "qa", "qa-imap-Passw0rd"
HOST = "127.0.0.1"


class Recording:
    """Mixin for imaplib.IMAP4: keeps every line sent and received."""

    def _init_log(self):
        if not hasattr(self, "log"):
            self.log = []

    def _get_line(self):
        line = super()._get_line()
        self._init_log()
        self.log.append("S: " + line.decode("utf-8", "replace"))
        return line

    def send(self, data):
        self._init_log()
        text = data.decode("utf-8", "replace").rstrip("\r\n")
        self.log.append("C: " + text.replace(PASSWORD, "<password>"))
        return super().send(data)


class IMAP(Recording, imaplib.IMAP4):
    pass


class IMAPS(Recording, imaplib.IMAP4_SSL):
    pass


def tls_context():
    context = ssl.create_default_context(cafile=os.path.join(STATE, "tls", "cert.pem"))
    context.check_hostname = True
    return context


def send(address, code):
    message = (
        f"From: authflow smoke <noreply@example.org>\r\n"
        f"To: {address}\r\n"
        f"Subject: Your verification code\r\n"
        f"Date: {email.utils.formatdate(localtime=True)}\r\n"
        f"Message-ID: {email.utils.make_msgid(domain='example.org')}\r\n"
        f"\r\n"
        f"Your one-time code is {code}.\r\n"
    )
    with smtplib.SMTP(HOST, MTA_PORT, timeout=10) as smtp:
        refused = smtp.sendmail("noreply@example.org", [address], message)
        assert not refused, refused
    return time.monotonic()


def check_relay_refused():
    with smtplib.SMTP(HOST, MTA_PORT, timeout=10) as smtp:
        try:
            smtp.sendmail("noreply@example.org", ["someone@example.net"], "Subject: x\r\n\r\nx\r\n")
        except smtplib.SMTPRecipientsRefused as refused:
            code, text = refused.recipients["someone@example.net"]
            print(f"  relay to someone@example.net refused: {code} {text.decode()}")
            return
    raise AssertionError("relay to example.net was accepted")


def wait_visible(imap, address, sent_at, limit=15.0):
    """UID SEARCH TO until the message shows up; returns (uid, seconds since SMTP accepted it)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        # NOOP makes dovecot rescan the Maildir for this selected mailbox
        imap.noop()
        typ, data = imap.uid("SEARCH", "TO", f'"{address}"')
        assert typ == "OK", (typ, data)
        uids = data[0].split()
        if uids:
            return uids[-1].decode(), time.monotonic() - sent_at
        time.sleep(0.02)
    raise AssertionError(f"{address} not visible within {limit}s")


def session(imap, address, code, sent_at, label):
    print(f"  [{label}] capabilities: {' '.join(imap.capabilities)}")
    typ, data = imap.login(USER, PASSWORD)
    assert typ == "OK", (typ, data)
    typ, data = imap.select("INBOX")
    assert typ == "OK", (typ, data)
    uid, seconds = wait_visible(imap, address, sent_at)
    today = datetime.date.today().strftime("%d-%b-%Y")
    typ, data = imap.uid("SEARCH", "SINCE", today)
    assert typ == "OK" and uid.encode() in data[0].split(), (typ, data)
    typ, data = imap.uid("SEARCH", "SINCE", today, "TO", f'"{address}"', "BODY", code)
    assert typ == "OK" and data[0].split() == [uid.encode()], (typ, data)
    typ, data = imap.uid("FETCH", uid, "(BODY.PEEK[])")
    assert typ == "OK", (typ, data)
    body = data[0][1].decode()
    assert f"To: {address}" in body and code in body, body
    imap.logout()
    print(f"  [{label}] UID {uid}: found by TO/SINCE, fetched, code {code} present; visible {seconds * 1000:.0f} ms after SMTP")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transcript", action="store_true", help="print the IMAP conversations")
    parser.add_argument("--timings", type=int, default=5, help="extra messages sent to measure delivery time")
    args = parser.parse_args()

    run = "".join(random.choices(string.ascii_lowercase + string.digits, k=8))
    code = f"{random.randrange(10**6):06d}"
    address = f"qa+run-{run}@test.example.com"
    print(f"SMTP 127.0.0.1:{MTA_PORT}: {address}, code {code}")
    sent_at = send(address, code)
    check_relay_refused()

    transcripts = []
    print(f"IMAP 127.0.0.1:{IMAP_PORT} + STARTTLS")
    imap = IMAP(HOST, IMAP_PORT, timeout=10)
    before = " ".join(imap.capabilities)
    imap.starttls(tls_context())
    print(f"  [before STARTTLS] capabilities: {before}")
    session(imap, address, code, sent_at, "after STARTTLS")
    transcripts.append(("IMAP + STARTTLS", imap.log))

    print(f"IMAPS 127.0.0.1:{IMAPS_PORT}")
    imaps = IMAPS(HOST, IMAPS_PORT, ssl_context=tls_context(), timeout=10)
    session(imaps, address, code, sent_at, "implicit TLS")
    transcripts.append(("IMAPS", imaps.log))

    bad = IMAPS(HOST, IMAPS_PORT, ssl_context=tls_context(), timeout=10)
    try:
        bad.login(USER, "wrong-password")
        raise AssertionError("wrong password accepted")
    except imaplib.IMAP4.error as error:
        print(f"  wrong password: {error}")
    bad.shutdown()

    # Delivery time: SMTP "250 OK" -> visible to UID SEARCH on an already selected INBOX.
    if args.timings:
        imap = IMAPS(HOST, IMAPS_PORT, ssl_context=tls_context(), timeout=10)
        imap.login(USER, PASSWORD)
        imap.select("INBOX")
        times = []
        for i in range(args.timings):
            address_i = f"qa+timing-{run}-{i}@test.example.com"
            times.append(wait_visible(imap, address_i, send(address_i, code))[1])
        imap.logout()
        print(
            f"delivery (SMTP accepted -> UID SEARCH finds it), {len(times)} messages: "
            f"min {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms"
        )

    if args.transcript:
        for label, log in transcripts:
            print(f"\n--- {label} transcript ---")
            print("\n".join(log))
    print("mailserver smoke: OK")


if __name__ == "__main__":
    try:
        main()
    except (AssertionError, OSError, imaplib.IMAP4.error, smtplib.SMTPException) as failure:
        print(f"mailserver smoke: FAILED: {failure!r}", file=sys.stderr)
        sys.exit(1)
