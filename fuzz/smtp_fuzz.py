#!/usr/bin/env python3
"""The SMTP receiver's fuzzer and soak (docs/fuzzing.md, "The SMTP receiver").

Starts `authflow inbox` on loopback (ephemeral ports, small limits) and, for --seconds, sends it
seeded sessions of every kind: valid messages with mutated MIME (random bytes, deep nesting, bad
base64 and quoted-printable, huge headers), command garbage, binary junk, lines without an end,
pipelined bursts, messages over the size limit, too many recipients, STARTTLS without TLS,
connections dropped mid-DATA; and, all along, a few slow clients trickling bytes. After every
few sessions a valid message must still be accepted and read back over the HTTP API. The
receiver's resident memory is sampled: after the warm-up it must stay flat (bounded store,
bounded buffers), and the process must never exit.

Usage: fuzz/smtp_fuzz.py [--seconds N] [--seed N] [--max-growth-mb M] BINARY
Exit 0: nothing found; 1: a finding (the session that caused it is written to
.build/fuzz-findings/smtp-*.bin); 2: usage or start-up failure.
"""

import argparse
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

LIMIT = 65536  # --max-message-bytes
FINDINGS = Path(".build/fuzz-findings")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def mime_message(rng: random.Random, to: str) -> bytes:
    boundary = "b" + str(rng.randrange(10**6))
    parts = [
        b"Content-Type: text/plain; charset=utf-8\r\n\r\nYour code is 123456\r\n",
        b"Content-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>Code =3D <b>123=\r\n456</b></p>\r\n",
        b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\nWW91ciBjb2RlIGlzIDk4NzY1NA==\r\n",
    ]
    body = b"".join(b"--" + boundary.encode() + b"\r\n" + rng.choice(parts) for _ in range(rng.randrange(1, 5)))
    body += b"--" + boundary.encode() + b"--\r\n"
    head = (f"From: a@example.com\r\nTo: {to}\r\nSubject: =?utf-8?q?J=C3=B6rg?= fuzz\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"{boundary}\"\r\n\r\n").encode()
    message = bytearray(head + body)
    for _ in range(rng.choice([0, 0, 1, 3, 20])):
        where = rng.randrange(len(message))
        choice = rng.random()
        if choice < 0.4:
            message[where] = rng.randrange(256)
        elif choice < 0.7:
            message[where:where] = rng.choice([b"\r\n", b"--" + boundary.encode(), b"=?", b"=", b"\x00", b"<a href=", b"&#"])
        else:
            del message[where:where + rng.randrange(1, 40)]
    if rng.random() < 0.1:  # deep nesting
        depth = rng.randrange(5, 200)
        nested = b"".join(f"Content-Type: multipart/mixed; boundary=n{i}\r\n\r\n--n{i}\r\n".encode() for i in range(depth))
        message = bytearray(head.split(b"MIME-Version")[0] + b"MIME-Version: 1.0\r\n" + nested + b"x\r\n")
    if rng.random() < 0.05:  # a huge header
        message[0:0] = b"X-Long: " + b"a" * rng.randrange(1000, 300_000) + b"\r\n"
    return bytes(message)


def dot_stuffed(message: bytes) -> bytes:
    lines = message.replace(b"\r\n", b"\n").split(b"\n")
    return b"\r\n".join((b"." + line if line.startswith(b".") else line) for line in lines) + b"\r\n.\r\n"


def session(rng: random.Random, n: int) -> bytes:
    to = f"qa+f{n}@test.example.com"
    kind = rng.random()
    if kind < 0.45:
        data = mime_message(rng, to)
        out = f"EHLO fuzz\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<{to}>\r\nDATA\r\n".encode() + dot_stuffed(data)
        return out + (b"QUIT\r\n" if rng.random() < 0.8 else b"")
    if kind < 0.55:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000)))
    if kind < 0.62:
        return b"EHLO fuzz\r\n" + b"A" * rng.randrange(3000, 200_000)  # a line without an end
    if kind < 0.70:
        verbs = [b"HELO", b"EHLO", b"MAIL FROM:", b"RCPT TO:", b"DATA", b"RSET", b"NOOP", b"VRFY", b"AUTH PLAIN",
                 b"STARTTLS", b"BDAT 10", b"QUIT", b"MAIL FROM:<>", b"RCPT TO:<" + b"x" * 600 + b">", b"\x00\xff"]
        return b"".join(rng.choice(verbs) + b" " + bytes(rng.randrange(33, 127) for _ in range(rng.randrange(0, 30))) + b"\r\n"
                        for _ in range(rng.randrange(1, 40)))
    if kind < 0.78:  # over the size limit, by SIZE and by bytes
        declared = b" SIZE=999999999" if rng.random() < 0.5 else b""
        big = b"Subject: big\r\n\r\n" + (b"x" * 998 + b"\r\n") * (LIMIT // 1000 + rng.randrange(2, 100))
        return b"EHLO f\r\nMAIL FROM:<a@example.com>" + declared + f"\r\nRCPT TO:<{to}>\r\nDATA\r\n".encode() + big + b".\r\n"
    if kind < 0.84:  # too many recipients
        return b"EHLO f\r\nMAIL FROM:<a@example.com>\r\n" + b"".join(
            f"RCPT TO:<r{i}@example.com>\r\n".encode() for i in range(rng.randrange(90, 300))) + b"DATA\r\n"
    if kind < 0.92:  # dropped mid-DATA
        return f"EHLO f\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<{to}>\r\nDATA\r\n".encode() + mime_message(rng, to)[: rng.randrange(1, 500)]
    return b"EHLO f\r\nSTARTTLS\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<x@example.com>\r\n"  # no TLS configured


def send(port: int, payload: bytes, timeout: float = 5.0, half_close: bool = True) -> bytes:
    """Sends `payload` after the greeting and reads what comes back: until the server closes, the
    reply to QUIT, or `timeout`. With `half_close`, the write side is shut after the payload (a
    client that simply stops); without it, the client waits for its replies as SMTP clients do."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        received = b""
        try:
            sock.settimeout(timeout)
            received += sock.recv(4096)
            sock.sendall(payload)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
            while chunk := sock.recv(65536):
                received += chunk
                if len(received) > 1_000_000 or re.search(rb"(^|\n)221 ", received):
                    break
        except OSError:  # the server closed first (a limit, a refusal): what it said is kept
            pass
        return received


def healthy(port: int, api: str, n: int) -> str | None:
    to = f"qa+health{n}@test.example.com"
    reply = send(port, f"EHLO h\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<{to}>\r\nDATA\r\nSubject: health\r\n\r\nhealth {n}\r\n.\r\nQUIT\r\n".encode(),
                 timeout=20, half_close=False)
    if b"250 2.0.0 Ok: queued" not in reply:
        return f"a valid message was not accepted: {reply[-300:]!r}"
    with urllib.request.urlopen(f"{api}api/v1/messages?to={urllib.request.quote(to)}", timeout=10) as answer:
        messages = json.load(answer)["messages"]
    if not any(f"health {n}" in m["body"] for m in messages):
        return "a valid message was accepted but not read back over the API"
    return None


def trickler(port: int, stop: threading.Event):
    """A slow client: one byte every 200 ms, reconnecting when closed."""
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.recv(512)
                sock.sendall(b"EHLO slow\r\nMAIL FROM:<s@example.com>\r\nRCPT TO:<s@example.com>\r\nDATA\r\n")
                while not stop.is_set():
                    sock.sendall(b"x")
                    time.sleep(0.2)
        except OSError:
            time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--max-growth-mb", type=float, default=24)
    parser.add_argument("binary")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    process = subprocess.Popen(
        [args.binary, "inbox", "--smtp", "127.0.0.1:0", "--http", "127.0.0.1:0", "--max-message-bytes", str(LIMIT),
         "--max-messages", "200"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        api = process.stdout.readline().strip()
        banner = process.stderr.readline()
        match = re.search(r"SMTP on port (\d+)", banner)
        if not api.startswith("http://") or not match:
            print(f"smtp fuzz: authflow inbox did not start: {api!r} {banner!r}", file=sys.stderr)
            return 2
        port = int(match.group(1))
        print(f"smtp fuzz: seed {args.seed}, {args.seconds:.0f} s, receiver on port {port} (PID {process.pid})")
        stop = threading.Event()
        slow = [threading.Thread(target=trickler, args=(port, stop), daemon=True) for _ in range(8)]
        for thread in slow:
            thread.start()
        started = time.monotonic()
        samples: list[tuple[float, float]] = []
        n = 0
        finding = None
        while time.monotonic() - started < args.seconds:
            n += 1
            payload = session(rng, n)
            try:
                send(port, payload, timeout=1.0, half_close=rng.random() < 0.5)
            except OSError as error:
                finding = f"session {n}: could not connect: {error}"
            if process.poll() is not None:
                finding = f"session {n}: the receiver exited with {process.returncode}"
            if finding is None and n % 25 == 0:
                finding = healthy(port, api, n)
            if finding:
                FINDINGS.mkdir(parents=True, exist_ok=True)
                path = FINDINGS / f"smtp-{args.seed}-{n}.bin"
                path.write_bytes(payload)
                print(f"smtp fuzz: FINDING: {finding} (session written to {path})", file=sys.stderr)
                return 1
            if n % 10 == 0:
                samples.append((time.monotonic() - started, rss_mb(process.pid)))
        stop.set()
        warm = [rss for at, rss in samples if at < args.seconds / 3] or [0.0]
        late = [rss for at, rss in samples if at >= 2 * args.seconds / 3] or warm
        growth = max(late) - max(warm)
        print(f"smtp fuzz: {n} sessions, {len(slow)} slow clients throughout; resident memory: peak {max(warm):.1f} MB "
              f"in the first third, {max(late):.1f} MB in the last (growth {growth:+.1f} MB, bound {args.max_growth_mb} MB)")
        if growth > args.max_growth_mb:
            print("smtp fuzz: FINDING: resident memory grows under load", file=sys.stderr)
            return 1
        return 0
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    sys.exit(main())
