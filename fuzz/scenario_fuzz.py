#!/usr/bin/env python3
"""Structured fuzzer for authflow's verdict (issue 11, Deliver 9).

Mutates the bundled scenarios and grammar-generates expressions, runs the real `authflow` binary
on each case as a child process with a time and memory budget, and checks the contract a CI gate
relies on (docs/fuzzing.md):

  * no crash: the process ends by itself with an exit code of the contract (0, 1, 2, 3) — never a
    signal, a trap (132/133/134/139), a "Fatal error" or a backtrace;
  * no hang: validate finishes within its budget; a run finishes within its `--run-timeout` plus
    cleanup plus slack (the fuzzer pins `timeout:` on every scenario it runs, and `--run-timeout`
    on the run: a mutated matrix may hold a thousand instances), exiting 124 when it was cut;
  * no unlocated error: exit 2 from `validate FILE` names `file:line:col`;
  * reports: every run writes a JUnit and a JSON report that parse, and leaves nothing else
    (no temporary files) in the report folder;
  * signals and pipes: SIGINT / SIGTERM / SIGHUP (once or twice) and a closed standard output end
    a run with the documented exit code, valid reports and no backtrace.

Every finding is written to the findings folder as a ready-to-keep regression case; copy it under
Tests/FuzzRegressions/ (the header says how) so `swift test` replays it forever.

Usage: fuzz/run [--seconds N] [--seed N] [--modes validate,expr,run,signals,pipes] [BINARY]
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONTRACT_EXITS = {0, 1, 2, 3}
INTERRUPT_EXITS = {130: signal.SIGINT, 143: signal.SIGTERM, 129: signal.SIGHUP}
CRASH_MARKERS = ("Fatal error", "Current stack trace", "Stack dump", "💣 Program crashed", "Illegal instruction",
                 "Segmentation fault", "SIGILL", "SIGSEGV", "SIGTRAP")
LOCATED = re.compile(r":\d+:\d+: error:")
MEMORY_LIMIT_MB = 2048
VALIDATE_BUDGET_S = 15.0
RUN_SCENARIO_TIMEOUT_S = 8
# The whole run's deadline (`--run-timeout`): a matrix may hold up to a thousand instances, which a
# slow machine cannot run in a minute; the run is cut there and exits 124 with complete reports.
RUN_TIMEOUT_S = 15
# run deadline (at least one scenario timeout) + the 30 s cleanup budget + start-up and report writing
RUN_BUDGET_S = max(RUN_TIMEOUT_S, RUN_SCENARIO_TIMEOUT_S) + 30 + 20


# --------------------------------------------------------------------------------------------
# Interesting values

INTS = [0, 1, -1, 2, 255, 256, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64, 10**30, -10**30]
FLOATS = [0.0, -0.0, 0.5, 1e-300, 1e38, 1e300, 1e308, -1e308, float("inf"), float("-inf"), float("nan")]
DURATIONS = ["0", "0ms", "1ms", "10ms", "-1s", "-5m", "1e38", "1e38s", "1e300ms", "2562047788015215h",
             "9223372036854775807h", "9223372036854775807", "18446744073709551616s", "9e18ms", ".5s", "1.5m",
             "nan", "infs", "inf", "1e-400s", "5", "5d", "h", "s", " 3s ", "3 s", "1_000s", "0x10s", "２s"]
STRINGS = ["", " ", "x" * 10_000, "${{", "}}", "${{ }}", "${{ 1e300 }}", "${{ 9223372036854775807 + 1 }}",
           "${{ -9223372036854775807 - 2 }}", "${{ 9223372036854775807 * 2 }}", "${{ steps }}",
           "${{ steps.nosuch.body }}", "${{ vars }}", "${{ env.HOME }}", "\u202e\u0000", "é" * 300,
           "${{ '${{' }}", "$${{ 1 }}", "${{ 1 }}${{ 2 }}", "ü\ud7ff", "a\nb: c", "*alias", "&anchor x",
           "!!binary aGVsbG8=", "%TAG", "- - -", "{", "[", "'", '"', "\\", "\t", "%%", "https://[::1", "::::"]
REGEXES = ["^(a+)+$", "(a|aa)+$", "(a*)*b", "^(\\w+\\s?)*$", "(.*a){20}", "((a+)+)+", "[", "(", "\\", "(?<=a)b",
           "(a)\\1", "a{1000000}", "a{2,1}", "(?i)", "", ".*", "[^]", "\\p{L}+", "(?P<x>a)", "a**", "x{,5}"]
MATCHERS = ["equals", "not_equals", "matches", "contains", "starts_with", "one_of", "exists", "type", "gt", "gte",
            "lt", "lte", "within", "nosuch_matcher"]
NUMERIC_KEYS = ["timeout", "attempts", "delay", "backoff", "seconds", "for", "advance", "min_ttl", "max_age",
                "count", "limit", "status", "expires_in", "jobs", "interval"]
FUNCTIONS = {  # name → arity
    "now": 0, "random_email": 0, "random_password": 0, "uuid": 0, "len": 1, "lower": 1, "upper": 1,
    "jwt": 1, "json": 1, "to_json": 1, "string": 1, "int": 1, "secret": 1, "totp": 1, "base64url_encode": 1,
    "base64url_decode": 1, "contains": 2, "starts_with": 2, "ends_with": 2, "matches": 2, "url_query": 2,
    "default": 2, "nosuch_function": 1,
}
ROOTS = ["vars", "matrix", "steps", "tenant", "client", "credentials", "env", "scenario", "nosuch"]
BINARY_OPS = ["==", "!=", "<", "<=", ">", ">=", "&&", "||", "+", "-", "*", "/", "%"]


def interesting_scalar(rng: random.Random, key: str | None = None):
    if key in NUMERIC_KEYS or rng.random() < 0.15:
        choice = rng.random()
        if choice < 0.45:
            return rng.choice(DURATIONS)
        if choice < 0.75:
            return rng.choice(INTS)
        return rng.choice(FLOATS)
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(STRINGS)
    if pick < 0.5:
        return rng.choice(INTS + FLOATS)
    if pick < 0.6:
        return rng.choice([True, False, None])
    if pick < 0.7:
        return "${{ " + gen_expr(rng, 4) + " }}"
    if pick < 0.8:
        return [interesting_scalar(rng) for _ in range(rng.randint(0, 3))]
    if pick < 0.9:
        return {rng.choice(MATCHERS): interesting_scalar(rng)}
    return rng.choice(DURATIONS)


# --------------------------------------------------------------------------------------------
# Expressions

def gen_literal(rng: random.Random) -> str:
    kind = rng.randrange(7)
    if kind == 0:
        return str(rng.choice(INTS))
    if kind == 1:
        return rng.choice(["1e38", "1e300", "1e308", "1e309", "-0.0", "0.5", "1.", ".5", "1e", "0x1F", "00", "9" * 40])
    if kind == 2:
        text = rng.choice(["", "a", "\\'", "x" * 50, "${{", "é", "a\\nb", "\\u0000", "%s", "'"])
        return "'" + text.replace("'", "\\'") + "'"
    if kind == 3:
        return rng.choice(["true", "false", "null", "nil", "undefined"])
    if kind == 4:
        return rng.choice(DURATIONS[:12])
    if kind == 5:
        return "[" + ", ".join(gen_literal(rng) for _ in range(rng.randint(0, 3))) + "]"
    return f"'{rng.choice(REGEXES).replace(chr(92), chr(92) * 2)}'"


def gen_expr(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.2:
        if rng.random() < 0.5:
            return gen_literal(rng)
        path = rng.choice(ROOTS)
        for _ in range(rng.randint(0, 3)):
            path += rng.choice([".a", ".body", ".claims", "[0]", "[-1]", "['x']", "[9223372036854775807]", ".0"])
        return path
    kind = rng.randrange(6)
    if kind == 0:
        return f"({gen_expr(rng, depth - 1)} {rng.choice(BINARY_OPS)} {gen_expr(rng, depth - 1)})"
    if kind == 1:
        return rng.choice(["!", "-", "!!", "--"]) + gen_expr(rng, depth - 1)
    if kind == 2:
        name = rng.choice(list(FUNCTIONS))
        arity = FUNCTIONS[name] + (rng.random() < 0.1)
        if name == "matches" and rng.random() < 0.7:
            return f"matches('{'a' * rng.randint(10, 5000)}!', '{rng.choice(REGEXES[:6]).replace(chr(92), chr(92) * 2)}')"
        return f"{name}(" + ", ".join(gen_expr(rng, depth - 1) for _ in range(arity)) + ")"
    if kind == 3:
        return f"{gen_expr(rng, depth - 1)}[{gen_expr(rng, depth - 1)}]"
    if kind == 4:
        return f"{gen_expr(rng, depth - 1)}.{rng.choice(['a', 'claims', 'header', 'raw', 'length', '0'])}"
    return gen_pathological_expr(rng) if rng.random() < 0.2 else f"({gen_expr(rng, depth - 1)})"


def gen_pathological_expr(rng: random.Random) -> str:
    depth = rng.choice([50, 200, 1_000, 8_000, 50_000])
    kind = rng.randrange(6)
    if kind == 0:
        return "(" * depth + "1" + ")" * depth
    if kind == 1:
        return "!" * depth + "true"
    if kind == 2:
        return "-" * depth + "1"
    if kind == 3:
        return " + ".join(["1"] * depth)
    if kind == 4:
        return "[" * depth + "]" * depth
    return "len(" * depth + "'x'" + ")" * depth


# --------------------------------------------------------------------------------------------
# Scenario mutation

def load_seeds() -> list[tuple[str, dict]]:
    seeds = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        if path.name == "authflow.yaml" or "tenants" in path.parts:
            continue
        try:
            document = yaml.safe_load(path.read_text())
        except yaml.YAMLError:
            continue
        if isinstance(document, dict) and "steps" in document:
            seeds.append((str(path.relative_to(ROOT)), document))
    return seeds


def walk(node, path=()):
    """Every (container, key) position in the tree."""
    if isinstance(node, dict):
        for key in list(node):
            yield node, key
            yield from walk(node[key])
    elif isinstance(node, list):
        for index in range(len(node)):
            yield node, index
            yield from walk(node[index])


def steps_of(doc: dict) -> list:
    steps = doc.get("steps")
    return steps if isinstance(steps, list) else []


def mutate_tree(rng: random.Random, doc: dict) -> tuple[dict, list[str]]:
    doc = copy.deepcopy(doc)
    applied = []
    for _ in range(rng.randint(1, 3)):
        operator = rng.choice(TREE_OPERATORS)
        try:
            note = operator(rng, doc)
        except (IndexError, ValueError, KeyError, TypeError, AttributeError):
            # An earlier mutation left a shape this operator cannot work on (a step replaced by a
            # scalar, a list emptied): no mutation this round, not a crash of the fuzzer.
            continue
        if note:
            applied.append(note)
    return doc, applied


def op_replace_scalar(rng, doc):
    positions = list(walk(doc))
    container, key = rng.choice(positions)
    container[key] = interesting_scalar(rng, key if isinstance(key, str) else None)
    return f"replace {key!r}"


def op_numeric_knob(rng, doc):
    steps = steps_of(doc)
    target = rng.choice(["scenario", "step", "retry", "wait", "clock", "within", "fault"])
    value = interesting_scalar(rng, "timeout")
    if target == "scenario" or not steps:
        doc["timeout"] = value
    elif target == "step":
        rng.choice(steps)["timeout"] = value
    elif target == "retry":
        step = rng.choice(steps)
        step["retry"] = {"attempts": rng.choice(INTS[:6] + [10**9]), "delay": rng.choice(DURATIONS),
                         "backoff": rng.choice(INTS[:5] + FLOATS)}
    elif target == "wait":
        steps.insert(rng.randrange(len(steps) + 1), {"id": "fuzz_wait", "wait": value})
    elif target == "clock":
        steps.insert(rng.randrange(len(steps) + 1), {"id": "fuzz_clock", "mock_clock": rng.choice(DURATIONS)})
    elif target == "within":
        step = rng.choice(steps)
        step.setdefault("expect", {})["fuzz_x"] = {"within": {"of": rng.choice(INTS), "seconds": rng.choice(INTS + FLOATS)}}
    else:
        steps.insert(0, {"id": "fuzz_fault", "mock_fault": {"endpoint": "/oauth/token", "status": rng.choice(INTS),
                                                           "delay": rng.choice(DURATIONS), "count": rng.choice(INTS)}})
    return f"numeric {target}"


def op_delete_key(rng, doc):
    positions = [(c, k) for c, k in walk(doc) if isinstance(c, dict)]
    container, key = rng.choice(positions)
    del container[key]
    return f"delete {key!r}"


def op_typo_key(rng, doc):
    positions = [(c, k) for c, k in walk(doc) if isinstance(c, dict) and isinstance(k, str) and len(k) > 2]
    container, key = rng.choice(positions)
    index = rng.randrange(len(key))
    typo = key[:index] + key[index + 1:] if rng.random() < 0.5 else key[:index] + rng.choice("aeiouxz_") + key[index:]
    container[typo] = container.pop(key)
    return f"typo {key!r}→{typo!r}"


def op_duplicate_step(rng, doc):
    steps = steps_of(doc)
    steps.insert(rng.randrange(len(steps) + 1), copy.deepcopy(rng.choice(steps)))
    return "duplicate step"


def op_needs(rng, doc):
    steps = steps_of(doc)
    ids = [s.get("id") for s in steps if isinstance(s, dict) and s.get("id")] or ["nosuch"]
    step = rng.choice([s for s in steps if isinstance(s, dict)])
    choice = rng.randrange(4)
    if choice == 0:
        step["needs"] = [step.get("id", "self")]
    elif choice == 1:
        step["needs"] = rng.sample(ids, k=min(len(ids), rng.randint(1, 3)))
    elif choice == 2:
        step["needs"] = ["nosuch_" + str(rng.randrange(100))]
    else:
        for s in steps:
            if isinstance(s, dict):
                s["needs"] = [rng.choice(ids)]
    return "needs"


def op_matrix(rng, doc):
    axes = rng.choice([1, 2, 3, 6, 10, 20])
    values = rng.choice([1, 2, 10, 100])
    doc["matrix"] = {f"axis{n}": list(range(values)) for n in range(axes)}
    return f"matrix {axes}x{values}"


def op_many_steps(rng, doc):
    count = rng.choice([100, 1_000, 10_000, 12_000])
    chain = rng.random() < 0.5
    steps = []
    for n in range(count):
        step = {"id": f"s{n}", "set": {"v": n}}
        if not chain and n > 1:
            step["needs"] = [f"s{rng.randrange(n)}", f"s{rng.randrange(n)}"]
            step["set"] = {"v": f"${{{{ steps.s{rng.randrange(n)}.v }}}}"}
        steps.append(step)
    doc["steps"] = steps
    doc.pop("cleanup", None)
    return f"{count} steps ({'chain' if chain else 'dag'})"


def op_expression(rng, doc):
    steps = steps_of(doc)
    expression = gen_expr(rng, rng.randint(1, 6))
    form = rng.randrange(4)
    if form == 0:
        steps.insert(rng.randrange(len(steps) + 1), {"id": "fuzz_assert", "assert": {"that": f"${{{{ {expression} }}}}"}})
    elif form == 1:
        steps.insert(rng.randrange(len(steps) + 1), {"id": "fuzz_set", "set": {"x": f"${{{{ {expression} }}}}"}})
    elif form == 2:
        rng.choice(steps)["if"] = f"${{{{ {expression} }}}}"
    else:
        doc.setdefault("vars", {})["fuzz"] = f"prefix ${{{{ {expression} }}}} suffix"
    return "expression"


def op_expect(rng, doc):
    step = rng.choice(steps_of(doc))
    expect = step.setdefault("expect", {})
    if not isinstance(expect, dict):
        step["expect"] = expect = {}
    path = rng.choice(["status", "body.x", "id_tokn", "id_token.claims.exp", "error.code", "value", "a..b", "", "0",
                       "body." * 50 + "x"])
    matcher = rng.choice(MATCHERS)
    if matcher == "matches":
        value = rng.choice(REGEXES)
    elif matcher == "within":
        value = {"of": rng.choice(INTS), "seconds": rng.choice(INTS + FLOATS)}
    else:
        value = interesting_scalar(rng)
    expect[path] = {matcher: value} if rng.random() < 0.8 else value
    return f"expect {matcher}"


def op_selection(rng, doc):
    choice = rng.randrange(4)
    if choice == 0:
        doc["requires"] = [rng.choice(["passwordles", "nosuch", "", "mock_control", "refresh_token_rotation"])]
    elif choice == 1:
        doc["client"] = rng.choice(["nativ", "", "web", "m2m", "nosuch"])
    elif choice == 2:
        doc["tags"] = rng.choice([[], [""], ["a" * 1000], [1, 2], "x"])
    else:
        doc["tenant"] = rng.choice(["mock", "nosuch", ""])
    return "selection"


TREE_OPERATORS = [op_replace_scalar, op_replace_scalar, op_numeric_knob, op_numeric_knob, op_delete_key, op_typo_key,
                  op_duplicate_step, op_needs, op_matrix, op_many_steps, op_expression, op_expression, op_expect,
                  op_selection]


def alias_bomb(levels: int, width: int) -> str:
    lines = ["scenario: alias bomb", "vars:", "  l0: &l0 [lol, lol]"]
    for level in range(1, levels):
        refs = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"  l{level}: &l{level} [{refs}]")
    lines += ["steps:", "  - set: { x: 1 }"]
    return "\n".join(lines) + "\n"


def mutate_text(rng: random.Random, text: str) -> tuple[str, str]:
    kind = rng.randrange(8)
    data = text
    if kind == 0:
        return alias_bomb(rng.choice([3, 9, 12]), rng.choice([2, 9, 10])), "alias bomb"
    if kind == 1:
        depth = rng.choice([100, 1_000, 10_000, 100_000])
        opener, closer = rng.choice([("[", "]"), ("{a: ", "}")])
        return f"scenario: deep\nvars:\n  d: {opener * depth}1{closer * depth}\nsteps:\n  - set: {{ x: 1 }}\n", f"deep {depth}"
    if kind == 2:
        cut = rng.randrange(len(data) + 1)
        return data[:cut], "truncate"
    if kind == 3:
        chars = list(data)
        for _ in range(rng.randint(1, 8)):
            if chars:
                chars[rng.randrange(len(chars))] = rng.choice(["\t", "\0", ":", "-", "{", "}", "[", "*", "&", "!", "%",
                                                                "\ufeff", "'", '"', "\n", " ", "\\", "é"])
        return "".join(chars), "byte flips"
    if kind == 4:
        size = rng.choice([1, 8, 40])
        return data + "\n# " + "x" * (size * 1024 * 1024) + "\n", f"{size} MiB"
    if kind == 5:
        return data + "\n" + data, "two documents glued"
    if kind == 6:
        return data.replace("steps:", "steps: &s", 1) + "\ncleanup: *s\n", "anchor reuse"
    return "---\n" + data + "\n---\n" + data, "multi-document"


# --------------------------------------------------------------------------------------------
# Running

@dataclass
class Outcome:
    exit: int | None  # None: killed by the fuzzer (budget)
    seconds: float
    peak_mb: float
    stdout: str
    stderr: str
    killed_for: str = ""


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def execute(argv: list[str], budget: float, cwd: Path, stdin=subprocess.DEVNULL, on_start=None,
            stdout_pipe=False) -> Outcome:
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    started = time.monotonic()
    # A crash still says "Fatal error" and ends on a signal; the symbolicated backtrace only costs seconds.
    environment = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    process = subprocess.Popen(argv, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE if stdout_pipe else out,
                               stderr=err, start_new_session=True, env=environment)
    if on_start:
        on_start(process)
    peak = 0.0
    killed_for = ""
    while True:
        try:
            process.wait(timeout=0.05)
            break
        except subprocess.TimeoutExpired:
            peak = max(peak, rss_mb(process.pid))
            if peak > MEMORY_LIMIT_MB:
                killed_for = f"memory over {MEMORY_LIMIT_MB} MB"
            elif time.monotonic() - started > budget:
                killed_for = f"still running after {budget:.0f} s"
            if killed_for:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                break
    elapsed = time.monotonic() - started
    out.seek(0)
    err.seek(0)
    code = None if killed_for else (process.returncode if process.returncode >= 0 else 128 - process.returncode)
    return Outcome(code, elapsed, peak, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                   killed_for)


def crash_reason(outcome: Outcome, allowed: set[int]) -> str | None:
    if outcome.killed_for:
        return outcome.killed_for
    for marker in CRASH_MARKERS:
        if marker in outcome.stderr or marker in outcome.stdout:
            return f"crash marker '{marker}' (exit {outcome.exit})"
    if outcome.exit not in allowed:
        return f"exit {outcome.exit} outside {sorted(allowed)}"
    return None


def check_reports(folder: Path, expect_scenarios: bool) -> str | None:
    names = sorted(p.name for p in folder.iterdir())
    extra = [n for n in names if n not in ("report.json", "report.xml")]
    if extra:
        return f"left behind in the report folder: {extra}"
    for name in ("report.json", "report.xml"):
        if name not in names:
            return f"no {name} written"
    try:
        report = json.loads((folder / "report.json").read_text())
    except (ValueError, UnicodeDecodeError) as error:
        return f"report.json does not parse: {error}"
    try:
        ElementTree.parse(folder / "report.xml")
    except ElementTree.ParseError as error:
        return f"report.xml does not parse: {error}"
    if expect_scenarios and not report.get("scenarios"):
        return "report.json lists no scenario"
    return None


@dataclass
class Fuzzer:
    binary: str
    rng: random.Random
    findings_dir: Path
    work: Path
    seeds: list
    cases: dict = field(default_factory=dict)
    findings: list = field(default_factory=list)
    signatures: dict = field(default_factory=dict)

    def count(self, mode: str):
        self.cases[mode] = self.cases.get(mode, 0) + 1

    def record(self, mode: str, reason: str, text: str, note: str, outcome: Outcome | None, expect: str):
        self.findings.append((mode, reason, note))
        signature = mode.split("-")[0] + ":" + re.sub(r"\d+", "N", reason)
        self.signatures[signature] = self.signatures.get(signature, 0) + 1
        if self.signatures[signature] > 3:
            return  # the same kind of finding, kept three times already
        digest = hashlib.sha256(text.encode(errors="replace")).hexdigest()[:12]
        name = f"{mode}-{digest}.yaml"
        header = [
            f"# Found by fuzz/run (mode {mode}, {note}): {reason}.",
            f"# expect: {expect}",
        ]
        if len(text) > 2_000_000:
            text = text[:2_000_000]
        (self.findings_dir / name).write_text("\n".join(header) + "\n" + text)
        tail = (outcome.stderr[-600:] if outcome else "").strip()
        print(f"FINDING {mode}: {reason} [{note}] → {self.findings_dir / name}\n    {tail[:600]}", flush=True)

    # validate ------------------------------------------------------------------------------
    def validate_case(self, text: str, note: str, mode: str = "validate") -> Outcome:
        self.count(mode)
        path = self.work / "case.yaml"
        path.write_text(text, errors="replace")
        outcome = execute([self.binary, "validate", str(path)], VALIDATE_BUDGET_S, self.work)
        reason = crash_reason(outcome, {0, 2})
        if not reason and outcome.exit == 2 and not LOCATED.search(outcome.stdout + outcome.stderr):
            reason = "exit 2 without file:line:col"
        if reason:
            self.record(mode, reason, text, note, outcome, "invalid" if outcome.exit == 2 else "valid")
        return outcome

    def one_validate(self):
        seed_name, seed = self.rng.choice(self.seeds)
        if self.rng.random() < 0.25:
            base = yaml.safe_dump(seed, sort_keys=False, allow_unicode=True)
            text, note = mutate_text(self.rng, base)
        else:
            doc, notes = mutate_tree(self.rng, seed)
            try:
                text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10**9)
            except (yaml.YAMLError, RecursionError):
                return
            note = ", ".join(notes)
        self.validate_case(text, f"{seed_name}: {note}")

    def one_expression(self):
        if self.rng.random() < 0.3:
            expression = gen_pathological_expr(self.rng)
        else:
            expression = gen_expr(self.rng, self.rng.randint(1, 8))
        doc = {"scenario": "expression", "timeout": f"{RUN_SCENARIO_TIMEOUT_S}s",
               "steps": [{"id": "e", "timeout": "2s", "assert": {"value": f"${{{{ {expression} }}}}"}}]}
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10**9)
        outcome = self.validate_case(text, "expression", mode="expr")
        if outcome.exit == 0 and self.rng.random() < 0.5:
            self.run_case(text, "expression", mode="expr-run")

    # run -----------------------------------------------------------------------------------
    def run_case(self, text: str, note: str, mode: str = "run"):
        self.count(mode)
        reports = self.work / "reports"
        shutil.rmtree(reports, ignore_errors=True)
        reports.mkdir()
        path = self.work / "run.yaml"
        path.write_text(text)
        argv = [self.binary, "run", str(path), "--jobs", "2", "--reporter", f"junit:{reports / 'report.xml'}",
                "--reporter", f"json:{reports / 'report.json'}", "--allow-empty", "--run-timeout", f"{RUN_TIMEOUT_S}s"]
        outcome = execute(argv, RUN_BUDGET_S, self.work)
        # A scenario that reads an unset env.X is refused before it runs (exit 2, no reports):
        # generated expressions read `env` at random.
        unset_env = outcome.exit == 2 and "the scenario reads env." in outcome.stderr and "which is not set" in outcome.stderr
        reason = crash_reason(outcome, {0, 1, 2, 3, 124} if unset_env else {0, 1, 3, 124})
        if not reason and not unset_env:
            reason = check_reports(reports, expect_scenarios=True)
        if not reason and outcome.exit == 124:
            run = json.loads((reports / "report.json").read_text()).get("run", {})
            if run.get("interrupted") is not True:
                reason = "exit 124 (--run-timeout) but report.json does not say run.interrupted"
        if reason:
            self.record(mode, reason, text, note, outcome, "runs")

    def one_run(self):
        seed_name, seed = self.rng.choice(self.seeds)
        doc, notes = mutate_tree(self.rng, seed)
        doc["timeout"] = f"{RUN_SCENARIO_TIMEOUT_S}s"
        try:
            text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10**9)
        except (yaml.YAMLError, RecursionError):
            return
        path = self.work / "probe.yaml"
        path.write_text(text)
        probe = execute([self.binary, "validate", str(path)], VALIDATE_BUDGET_S, self.work)
        if probe.exit == 0:
            self.run_case(text, f"{seed_name}: {', '.join(notes)}")

    # signals and pipes ---------------------------------------------------------------------
    def interrupted_run(self, mode: str, signals: list[int], delay: float, pipe: bool = False):
        self.count(mode)
        reports = self.work / "reports"
        shutil.rmtree(reports, ignore_errors=True)
        reports.mkdir()
        targets = ["scenarios/authentication", "scenarios/discovery.yaml", "scenarios/web_auth_login.yaml"]
        argv = [self.binary, "run", *self.rng.sample(targets, k=self.rng.randint(1, len(targets))),
                "--reporter", "console", "--reporter", f"junit:{reports / 'report.xml'}",
                "--reporter", f"json:{reports / 'report.json'}"]

        def disturb(process: subprocess.Popen):
            if pipe:
                process.stdout.readline()
                process.stdout.close()
                return
            time.sleep(delay)
            for number in signals:
                if process.poll() is not None:
                    return
                os.kill(process.pid, number)
                time.sleep(self.rng.choice([0.0, 0.01, 0.2]))

        outcome = execute(argv, 120, ROOT, on_start=disturb, stdout_pipe=pipe)
        if pipe:
            allowed = {0, 1, 141}
        else:
            allowed = {0, 1} | {code for code, number in INTERRUPT_EXITS.items() if number in signals}
        reason = crash_reason(outcome, allowed) or check_reports(reports, expect_scenarios=False)
        if reason:
            note = "stdout closed after one line" if pipe else f"signals {signals} after {delay:.2f}s"
            self.record(mode, reason, " ".join(argv[1:]), note, outcome, "interrupted")

    def one_signal(self):
        number = self.rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
        signals = [number] * self.rng.choice([1, 1, 2])
        # From 0.2 s: before the dynamic loader hands over to main, no program can keep a report.
        self.interrupted_run("signals", signals, self.rng.uniform(0.2, 3.0))

    def one_pipe(self):
        self.interrupted_run("pipes", [], 0, pipe=True)

    # regression corpus ---------------------------------------------------------------------
    def replay_corpus(self, corpus: Path):
        for path in sorted(corpus.glob("*.yaml")):
            text = path.read_text()
            expect = re.search(r"^# expect: (\w+)", text, re.M)
            kind = expect.group(1) if expect else "valid"
            if kind == "interrupted":
                continue
            outcome = self.validate_case(text, f"corpus {path.name}", mode="corpus")
            if kind == "runs" and outcome.exit == 0:
                self.run_case(text, f"corpus {path.name}", mode="corpus-run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?", default=str(ROOT / ".build/debug/authflow"))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("AUTHFLOW_FUZZ_SECONDS", 180)))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("AUTHFLOW_FUZZ_SEED", time.time_ns() % 2**32)))
    parser.add_argument("--modes", default="validate,expr,run,signals,pipes")
    parser.add_argument("--findings", default=str(ROOT / ".build/fuzz-findings"))
    parser.add_argument("--no-corpus", action="store_true", help="skip replaying Tests/FuzzRegressions")
    args = parser.parse_args()
    if not (1 <= args.seconds <= 7 * 24 * 3600):
        parser.error("--seconds must be between 1 and 604800")

    findings_dir = Path(args.findings)
    findings_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="authflow-fuzz-"))
    fuzzer = Fuzzer(args.binary, random.Random(args.seed), findings_dir, work, load_seeds())
    print(f"fuzz: seed {args.seed}, {args.seconds:.0f} s, modes {args.modes}, {len(fuzzer.seeds)} seed scenarios",
          flush=True)
    started = time.monotonic()
    try:
        if not args.no_corpus:
            fuzzer.replay_corpus(ROOT / "Tests/FuzzRegressions")
        modes = args.modes.split(",")
        weights = {"validate": 10, "expr": 5, "run": 3, "signals": 1, "pipes": 1}
        actions = {"validate": fuzzer.one_validate, "expr": fuzzer.one_expression, "run": fuzzer.one_run,
                   "signals": fuzzer.one_signal, "pipes": fuzzer.one_pipe}
        chosen = [m for m in modes if m in actions]
        while time.monotonic() - started < args.seconds:
            mode = fuzzer.rng.choices(chosen, weights=[weights[m] for m in chosen])[0]
            actions[mode]()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = sum(fuzzer.cases.values())
    summary = ", ".join(f"{mode} {count}" for mode, count in sorted(fuzzer.cases.items()))
    print(f"fuzz: {total} cases in {time.monotonic() - started:.0f} s ({summary}); "
          f"{len(fuzzer.findings)} findings (seed {args.seed})")
    for signature, count in sorted(fuzzer.signatures.items()):
        print(f"  {count} × {signature}")
    if fuzzer.findings:
        print(f"  cases kept in {findings_dir} (at most three of each kind)")
    print(f"{total - len(fuzzer.findings)} passed, {len(fuzzer.findings)} failed")
    return 1 if fuzzer.findings else 0


if __name__ == "__main__":
    sys.exit(main())
