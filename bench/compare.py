"""The driver of bench/compare: the same login flow through authflow, a plain Python client and
Tavern, against one running `authflow mock`, in one session; one table of medians.

Every run is a fresh child process, timed from its start to its exit (process start, imports and
discovery included) and waited for with `wait4`, whose rusage gives the child's own peak RSS. The
rounds go round-robin over the rows (round 1 of every row, then round 2, ...) so a burst of load
on the shared machine spreads over all of them. Before the timed rounds each row runs once
untimed with a few flows (warm caches, compiled bytecode) — and, with --self-check, once more
told to expect another access-token audience, which must fail: a client whose checks cannot fail
is not compared.

Usage: python compare.py --authflow BIN --base URL --work DIR [--flows N] [--rounds R]
                         [--timeout S] [--self-check] [--markdown FILE] [--json FILE]
Exit status: 0 when every run passed (and every self-check run failed as it must), else 1.
"""

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
from importlib import metadata as package_metadata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_tavern  # noqa: E402

AUDIENCE = "https://api.example.com"
WRONG_AUDIENCE = "https://other-api.example.com"
WARMUP_FLOWS = 4

SCENARIO = """scenario: compare login {index}
tags: [bench]
client: native
steps:
  - id: login
    web_auth:
      login: {{ email: "${{{{ tenant.users.alice.email }}}}", password: "${{{{ tenant.users.alice.password }}}}" }}
      audience: {audience}
    expect:
      id_token_valid: true
      id_token.claims.email: ${{{{ tenant.users.alice.email }}}}
      access_token.claims.aud: {{ contains: "{expected}" }}
"""

PROJECT = """default_tenant: compare
tenants:
  # The `authflow mock` every tool of bench/compare runs against, as any OpenID Provider.
  compare:
    kind: oidc
    issuer: {base}
    clients:
      native:
        client_id: native-client-id
        redirect_uri: https://app.example.com/callback
        token_endpoint_auth_method: none
    users:
      alice: {{ email: alice@example.com, password: Alice-Passw0rd! }}
"""


def write_authflow_suite(directory, base, flows, expected=AUDIENCE):
    """`flows` copies of the bench's login scenario (ScenarioCorpus.loginFlow) and an authflow.yaml
    whose default tenant is the running mock."""
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".yaml"):
            os.remove(os.path.join(directory, name))
    with open(os.path.join(directory, "authflow.yaml"), "w", encoding="utf-8") as file:
        file.write(PROJECT.format(base=base))
    for index in range(flows):
        with open(os.path.join(directory, f"login-{index:05d}.yaml"), "w", encoding="utf-8") as file:
            file.write(SCENARIO.format(index=index, audience=AUDIENCE, expected=expected))


class Row:
    """One line of the table: how to prepare a run of `flows` flows whose access tokens must be for
    `expected` (files written before the clock starts), its command, how its output says that every
    flow passed, and what it checks."""

    def __init__(self, tool, mode, prepare, command, passed, checks):
        self.tool, self.mode, self.prepare, self.command, self.passed, self.checks = (
            tool,
            mode,
            prepare,
            command,
            passed,
            checks,
        )
        self.samples = []  # (wall seconds, peak RSS bytes)


def rows(args, python):
    work = args.work
    suite = os.path.join(work, "authflow-suite")
    tavern_file = os.path.join(work, "tavern", "test_login.tavern.yaml")
    os.makedirs(os.path.dirname(tavern_file), exist_ok=True)

    def authflow(jobs):
        return Row(
            "authflow run",
            f"--jobs {jobs}",
            lambda flows, expected: write_authflow_suite(suite, args.base, flows, expected),
            lambda flows, expected: [args.authflow, "run", suite, "--jobs", str(jobs), "--quiet", "--fail-on-skip"],
            lambda flows, out: f"{flows} scenarios: {flows} passed" in out or f"{flows} scenario: {flows} passed" in out,
            "ID token: signature against the JWKS (kid, alg, key use), iss, sub, aud, exp, nbf, iat, nonce, azp "
            "(docs/id-token-validation.md); state; access token aud",
        )

    def plain(workers):
        return Row(
            "Python: httpx + PyJWT",
            "1 at a time" if workers == 1 else f"{workers} threads",
            lambda flows, expected: None,
            lambda flows, expected: [
                python,
                os.path.join(HERE, "compare_client.py"),
                args.base,
                str(flows),
                str(workers),
                expected,
            ],
            lambda flows, out: f"ok {flows} flows" in out,
            "ID token: signature against the JWKS (RS256 only), iss, aud, exp, iat, nonce; state; access token aud",
        )

    tavern = Row(
        "Tavern (pytest)",
        "1 at a time",
        lambda flows, expected: compare_tavern.write_tests(tavern_file, args.base, flows, expected),
        lambda flows, expected: [python, "-m", "pytest", "-p", "no:cacheprovider", "-q", tavern_file],
        lambda flows, out: f"{flows} passed" in out and "failed" not in out,
        "ID token: signature against the JWKS (PyJWT in an $ext function), iss, aud, exp, iat, nonce; state; "
        "access token aud; the login form read by regular expressions",
    )
    return [authflow(1), authflow(4), plain(1), plain(4), tavern]


def run_child(command, log, timeout):
    """Runs `command` with its output in `log`; (exit status, wall seconds, peak RSS bytes, output).
    The child is killed (by its PID) when it outlives `timeout` seconds."""
    env = dict(os.environ, PYTHONPATH=HERE, NO_COLOR="1")
    with open(log, "w", encoding="utf-8") as out:
        started = time.monotonic()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=os.path.dirname(log))
        watchdog = threading.Timer(timeout, lambda: os.kill(child.pid, signal.SIGKILL))
        watchdog.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            watchdog.cancel()
        wall = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
    with open(log, encoding="utf-8", errors="replace") as out:
        text = out.read()
    return child.returncode, wall, usage.ru_maxrss * 1024, text


def one_run(row, flows, args, label, expected=AUDIENCE):
    row.prepare(flows, expected)
    log = os.path.join(args.work, "logs", f"{label}.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    status, wall, rss, text = run_child(row.command(flows, expected), log, args.timeout)
    ok = status == 0 and row.passed(flows, text)
    return ok, wall, rss, log


def versions(args):
    found = {"python": platform.python_version()}
    for name in ("tavern", "pytest", "httpx", "PyJWT", "requests", "cryptography"):
        try:
            found[name] = package_metadata.version(name)
        except package_metadata.PackageNotFoundError:
            found[name] = "?"
    return found


def table(all_rows, args, load_start, load_end):
    lines = [
        f"flows per run: {args.flows}; rounds: {args.rounds}; cores: {os.cpu_count()}; "
        f"load average {load_start:.2f} at the start, {load_end:.2f} at the end",
        "",
        "| tool | mode | flows | wall time (median) | flows/s (median) | peak RSS (median) |",
        "|---|---|---|---|---|---|",
    ]
    for row in all_rows:
        walls = [wall for wall, _ in row.samples]
        rates = [args.flows / wall for wall in walls]
        rss = statistics.median(rss for _, rss in row.samples) / 1e6
        lines.append(
            f"| {row.tool} | {row.mode} | {args.flows} | {statistics.median(walls):.2f} s "
            f"(min {min(walls):.2f}, max {max(walls):.2f}) | {statistics.median(rates):.1f} | {rss:.1f} MB |"
        )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--authflow", required=True)
    parser.add_argument("--base", required=True, help="the running mock's base URL")
    parser.add_argument("--work", required=True)
    parser.add_argument("--flows", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600, help="seconds one run may take")
    parser.add_argument("--self-check", action="store_true")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    args = parser.parse_args()
    if not 1 <= args.flows <= 10_000:
        parser.error("--flows must be 1...10000")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds must be 1...20")
    if not 1 <= args.timeout <= 3600:
        parser.error("--timeout must be 1...3600 seconds")
    args.base = args.base.rstrip("/") + "/"
    args.work = os.path.abspath(args.work)
    args.authflow = os.path.abspath(args.authflow)
    os.makedirs(args.work, exist_ok=True)
    all_rows = rows(args, sys.executable)
    failed = []

    for row in all_rows:
        label = f"{row.tool} {row.mode}".replace(" ", "-").replace(":", "").replace("+", "")
        ok, wall, _, log = one_run(row, WARMUP_FLOWS, args, f"warmup-{label}")
        print(f"warm-up  {row.tool}, {row.mode}: {'ok' if ok else 'FAILED'} ({wall:.2f} s)", flush=True)
        if not ok:
            failed.append(f"{row.tool} {row.mode}: the warm-up failed, see {log}")
        if args.self_check:
            ok, _, _, log = one_run(row, WARMUP_FLOWS, args, f"selfcheck-{label}", expected=WRONG_AUDIENCE)
            print(
                f"self-check {row.tool}, {row.mode}: "
                f"{'fails as it must' if not ok else 'PASSED a wrong audience'}",
                flush=True,
            )
            if ok:
                failed.append(f"{row.tool} {row.mode}: accepted an access token for another audience, see {log}")
    if failed:
        print("\n".join(["FAILED:"] + failed))
        return 1

    load_start = os.getloadavg()[0]
    for round_index in range(args.rounds):
        for row in all_rows:
            label = f"{row.tool} {row.mode}".replace(" ", "-").replace(":", "").replace("+", "")
            ok, wall, rss, log = one_run(row, args.flows, args, f"round{round_index + 1}-{label}")
            print(
                f"round {round_index + 1}  {row.tool}, {row.mode}: {wall:.2f} s, {rss / 1e6:.1f} MB"
                f"{'' if ok else '  FAILED, see ' + log}",
                flush=True,
            )
            if not ok:
                failed.append(f"{row.tool} {row.mode}, round {round_index + 1}: see {log}")
                continue
            row.samples.append((wall, rss))
    load_end = os.getloadavg()[0]
    if failed:
        print("\n".join(["FAILED:"] + failed))
        return 1

    text = table(all_rows, args, load_start, load_end)
    print()
    print(text)
    found = versions(args)
    print("\n" + ", ".join(f"{name} {version}" for name, version in found.items()))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as file:
            file.write(text + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(
                {
                    "flows": args.flows,
                    "rounds": args.rounds,
                    "cores": os.cpu_count(),
                    "load_average": {"start": load_start, "end": load_end},
                    "versions": found,
                    "rows": [
                        {
                            "tool": row.tool,
                            "mode": row.mode,
                            "checks": row.checks,
                            "samples": [{"wall_seconds": wall, "peak_rss_bytes": rss} for wall, rss in row.samples],
                        }
                        for row in all_rows
                    ],
                },
                file,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
