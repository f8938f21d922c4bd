"""Checks the spans an OTLP receiver wrote (monitor/ci/otlp_receiver.py) for monitor/ci/otlp and
monitor/ci/run: every scenario run is a root span, every step a child of its run, every HTTP
exchange a client span child of a step with the HTTP attributes; and no secret in any of them.

    python3 check_spans.py SPANS.jsonl MIN_RUNS [SECRET…]
"""
import json
import re
import sys

path, min_runs, secrets = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
spans = [json.loads(line) for line in open(path)]
by_id = {span["span"]: span for span in spans}
roots = [s for s in spans if s["parent"] is None]
steps = [s for s in spans if s["name"].startswith("step ")]
clients = [s for s in spans if s["kind"] == 3]  # SPAN_KIND_CLIENT
problems = []
if len(roots) < min_runs:
    problems.append(f"{len(roots)} scenario runs, expected at least {min_runs}")
for root in roots:
    if "authflow.tenant" not in root["attributes"] or "authflow.scenario.file" not in root["attributes"]:
        problems.append(f"run span {root['name']!r} lacks its attributes")
for step in steps:
    parent = by_id.get(step["parent"])
    if parent is None or parent["parent"] is not None or parent["trace"] != step["trace"]:
        problems.append(f"{step['name']} is not a child of its scenario run")
for client in clients:
    parent = by_id.get(client["parent"])
    if parent is None or not parent["name"].startswith("step ") or parent["trace"] != client["trace"]:
        problems.append(f"HTTP span {client['name']} {client['attributes'].get('url.full')} is not a child of a step")
    for key in ["http.request.method", "url.full", "server.address"]:
        if key not in client["attributes"]:
            problems.append(f"HTTP span lacks {key}")
if not clients:
    problems.append("no HTTP exchange span")
# No secret: the profiles' passwords and client secrets, nor anything shaped like a token.
jwt = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
for span in spans:
    texts = [span["name"], span["status_message"]] + [str(v) for v in span["attributes"].values()]
    for text in texts:
        if jwt.search(text) or any(secret in text for secret in secrets):
            problems.append(f"a secret in span {span['name']!r}")
if problems:
    for problem in sorted(set(problems))[:20]:
        print("spans:", problem, file=sys.stderr)
    sys.exit(1)
print(f"spans: {len(roots)} scenario runs, {len(steps)} steps, {len(clients)} HTTP exchanges, nested; no secret")
