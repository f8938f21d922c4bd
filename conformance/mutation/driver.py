#!/usr/bin/env python3
"""The driver of the mutation test (conformance/mutation/run, README.md).

With the conformance provider behind the mutation proxy (proxy.py) it:

1. runs the baseline: every module that mutations.json names, unmutated, in one authflow run; each
   must get exactly the verdict conformance/expected-verdicts.txt gives tenant `conformance` for its
   file (passed when the file is not listed);
2. for each mutation: switches the proxy to it (POST /__mutation/NAME), runs its modules, and
   requires each module's plan result to be exactly the mapped verdict — exact, not "at least":
   a WARNING mutation that fails a module, or a FAILURE mutation that only warns, is a miss, since
   the module then reports at another severity than the OIDF suite would;
3. runs the known gaps (violations the pack does not catch yet) the same way: still missed is
   expected, caught fails the run so that the entry moves into the mutation list.

Prints a line per module of the baseline and per mutation (`caught` / `MISSED` with the module's
result, condition and detail). Exits 0 when all is as expected, 1 when a mutation is missed, the
baseline deviates or a gap closed, 3 on an environment error (the proxy does not answer, authflow
exits 3 or writes no report, a run times out).

    driver.py --proxy http://127.0.0.1:8120 --config conformance/mutation/authflow.yaml \
              --reports DIR [--only NAME …]

AUTHFLOW names the authflow command (default `swift run authflow`). Run from the repository root.
"""

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
VERDICTS = ("passed", "warning", "failed")
EXPECTED_TENANT = "conformance"
CONTROL_TIMEOUT = 5


class EnvironmentFailure(Exception):
    """The proxy, the provider or authflow could not be used: exit 3."""


def load_mutations(path):
    with open(path) as f:
        document = json.load(f)
    entries = []
    for section in ("mutations", "known_gaps"):
        seen = set()
        for entry in document.get(section, []):
            name = entry.get("name")
            modules = entry.get("modules") or []
            if not name or name in seen or not modules:
                sys.exit(f"{path}: {section}: each entry needs a unique name and modules ({name!r})")
            seen.add(name)
            for module in modules:
                if module.get("verdict") not in VERDICTS or not module.get("file"):
                    sys.exit(f"{path}: {name}: each module needs a file and a verdict of {', '.join(VERDICTS)}")
                if not os.path.isfile(module["file"]):
                    sys.exit(f"{path}: {name}: no such module file {module['file']}")
            if section == "known_gaps" and not entry.get("gap"):
                sys.exit(f"{path}: known_gaps: {name} needs `gap`, the reason the pack misses it")
            entries.append((section, entry))
    return entries


def load_expected(path):
    """conformance/expected-verdicts.txt: (tenant, file) -> verdict, for tenant `conformance`."""
    expected = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 3)
            if len(parts) == 4 and parts[0] == EXPECTED_TENANT:
                expected[parts[1]] = parts[2]
    return expected


def control(proxy, name):
    """Makes `name` the proxy's active mutation (none resets)."""
    request = urllib.request.Request(f"{proxy}/__mutation/{name}", data=b"", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=CONTROL_TIMEOUT) as response:
            if response.status == 204:
                return
            raise EnvironmentFailure(f"the proxy answered {response.status} to POST /__mutation/{name}")
    except urllib.error.HTTPError as error:
        raise EnvironmentFailure(f"the proxy refused mutation {name!r}: {error.code} {error.read(200).decode(errors='replace').strip()}")
    except OSError as error:
        raise EnvironmentFailure(f"the proxy does not answer POST /__mutation/{name}: {error}")


def proxy_mutations(proxy):
    try:
        with urllib.request.urlopen(f"{proxy}/__mutation/list", timeout=CONTROL_TIMEOUT) as response:
            return set(response.read().decode().split())
    except OSError as error:
        raise EnvironmentFailure(f"the proxy does not answer GET /__mutation/list: {error}")


def run_modules(authflow, config, tenant, files, report, log, timeout):
    """Runs `files` with authflow (bounded by `timeout` seconds) and returns file -> module entry."""
    try:
        os.remove(report)
    except FileNotFoundError:
        pass
    command = ["timeout", "--kill-after=10", str(timeout), *authflow, "run", *files,
               "--config", config, "--tenant", tenant, "--jobs", "1", "--reporter", f"json:{report}"]
    with open(log, "w") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            status = process.wait(timeout=timeout + 30)
        except subprocess.TimeoutExpired:
            status = 124
        finally:
            stop(process)
    if status in (124, 137):
        raise EnvironmentFailure(f"authflow did not finish within {timeout}s (log {log})")
    try:
        with open(report) as f:
            document = json.load(f)
    except (OSError, ValueError) as error:
        raise EnvironmentFailure(f"authflow exited {status} without a JSON report ({error}; log {log}):\n{tail(log)}")
    modules = {}
    for plan in document.get("test_plans", []):
        for module in plan.get("modules", []):
            modules[module["file"]] = module
    if status not in (0, 1) and not modules:
        raise EnvironmentFailure(f"authflow exited {status} (log {log}):\n{tail(log)}")
    return modules


def stop(process):
    """Ends `process` (coreutils timeout, which passes SIGTERM on to authflow) if it still runs."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


class Stopped(Exception):
    """SIGTERM or SIGINT: the run is being stopped."""


def on_signal(number, frame):
    raise Stopped(signal.Signals(number).name)


def tail(path, lines=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


def describe(module):
    """A module's result, condition and detail, on one line."""
    if module is None:
        return "not in the report's plan table"
    text = module.get("result") or "?"
    if module.get("condition"):
        text += f" ({module['condition']})"
    detail = " ".join((module.get("detail") or "").split())
    if len(detail) > 220:
        detail = detail[:217] + "..."
    return text + (f": {detail}" if detail else "")


def short(file):
    return os.path.splitext(os.path.basename(file))[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proxy", default="http://127.0.0.1:8120")
    parser.add_argument("--config", default=os.path.join(HERE, "authflow.yaml"))
    parser.add_argument("--tenant", default="mutated")
    parser.add_argument("--mutations", default=os.path.join(HERE, "mutations.json"))
    parser.add_argument("--expected", default=os.path.join(HERE, "..", "expected-verdicts.txt"))
    parser.add_argument("--reports", required=True, help="a directory for the JSON reports and logs")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per mutation's authflow run")
    parser.add_argument("--baseline-timeout", type=int, default=300)
    parser.add_argument("--only", action="append", help="run only these mutations (and the baseline of their modules)")
    args = parser.parse_args()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    authflow = shlex.split(os.environ.get("AUTHFLOW") or "swift run authflow")
    entries = load_mutations(args.mutations)
    if args.only:
        unknown = set(args.only) - {entry["name"] for _, entry in entries}
        if unknown:
            sys.exit(f"mutation: --only names unknown mutations: {', '.join(sorted(unknown))}")
        entries = [(section, entry) for section, entry in entries if entry["name"] in args.only]
    expected = load_expected(args.expected)
    os.makedirs(args.reports, exist_ok=True)
    started = time.monotonic()
    problems = []
    try:
        known = proxy_mutations(args.proxy)
        missing = sorted({entry["name"] for _, entry in entries} - known)
        if missing:
            raise EnvironmentFailure(f"the proxy does not implement: {', '.join(missing)}")

        # 1. The baseline: every module named, unmutated.
        files = sorted({module["file"] for _, entry in entries for module in entry["modules"]})
        control(args.proxy, "none")
        modules = run_modules(authflow, args.config, args.tenant, files, os.path.join(args.reports, "baseline.json"),
                              os.path.join(args.reports, "baseline.log"), args.baseline_timeout)
        for file in files:
            want = expected.get(file, "passed")
            module = modules.get(file)
            got = module.get("result") if module else None
            if got == want:
                print(f"mutation: baseline ok      {short(file)}: {want}")
            else:
                print(f"mutation: BASELINE DEVIATES {short(file)}: {describe(module)} (expected-verdicts.txt: {want})")
                problems.append(f"baseline: {file} is {got}, expected {want}")

        # 2. and 3. Each mutation, then each known gap.
        for section, entry in entries:
            name = entry["name"]
            files = [module["file"] for module in entry["modules"]]
            control(args.proxy, name)
            try:
                began = time.monotonic()
                modules = run_modules(authflow, args.config, args.tenant, files,
                                      os.path.join(args.reports, f"{section}-{name}.json"),
                                      os.path.join(args.reports, f"{section}-{name}.log"), args.timeout)
                seconds = time.monotonic() - began
            finally:
                control(args.proxy, "none")
            results = []
            for module in entry["modules"]:
                got = modules.get(module["file"])
                results.append(((got or {}).get("result") == module["verdict"], module, got))
            caught = all(ok for ok, _, _ in results)
            for ok, module, got in results:
                want = f"{module['verdict']}" + (f" by {module['condition']}" if module.get("condition") else "")
                if section == "mutations":
                    word = "caught" if ok else "MISSED"
                else:
                    word = "GAP CLOSED" if caught else "known gap"
                wanted = "expected" if section == "mutations" else "the OIDF suite gives"
                print(f"mutation: {word:<10} {name} — {short(module['file'])}: {describe(got)} "
                      f"[{wanted} {want}; {seconds:.1f}s]")
            if section == "mutations" and not caught:
                problems.append(f"{name}: missed ({entry['violation']}, {entry['clause']})")
            if section == "known_gaps" and caught:
                problems.append(f"{name}: the known gap is caught now; move it from known_gaps into mutations")
    except Stopped as error:
        print(f"mutation: stopped by {error}", file=sys.stderr)
        return 143
    except EnvironmentFailure as error:
        try:
            control(args.proxy, "none")
        except EnvironmentFailure:
            pass
        print(f"mutation: environment error: {error}", file=sys.stderr)
        return 3

    total = sum(1 for section, _ in entries if section == "mutations")
    print(f"mutation: {total - sum(1 for p in problems if ': missed' in p)}/{total} mutations caught, "
          f"{sum(1 for s, _ in entries if s == 'known_gaps')} known gap(s), {time.monotonic() - started:.0f}s")
    for problem in problems:
        print(f"mutation: unexpected: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
