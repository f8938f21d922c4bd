"""The checks of monitor/ci/run, through Prometheus's HTTP API and the monitor's endpoints.

Every wait is bounded; a failure says what was expected and what Prometheus answered.
"""
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request

MONITOR = os.environ["MONITOR"]
PROMETHEUS = os.environ["PROMETHEUS"]
MONITOR_PID = int(os.environ["MONITOR_PID"])
SCENARIOS = 8  # scenarios/conformance
TENANTS = ["mock", "conformance"]


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read().decode()


def request(method, url, body=None):
    data = urllib.parse.urlencode(body).encode() if body else None
    req = urllib.request.Request(url, data=data, method=method)
    with urllib.request.urlopen(req, timeout=10) as response:
        return response.status


def query(expr):
    url = PROMETHEUS + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    status, body = get(url)
    answer = json.loads(body)
    if answer.get("status") != "success":
        raise SystemExit(f"query {expr!r}: {body}")
    return {
        tuple(sorted(sample["metric"].items())): float(sample["value"][1]) for sample in answer["data"]["result"]
    }


def until(what, check, limit=240):
    deadline = time.monotonic() + limit
    last = None
    while time.monotonic() < deadline:
        try:
            ok, last = check()
        except OSError as error:  # not up yet
            ok, last = False, str(error)
        if ok:
            print(f"monitor-ci: {what}")
            return
        time.sleep(1)
    raise SystemExit(f"monitor-ci: not within {limit}s: {what}; last seen: {last}")


def success(tenant):
    return {dict(k)["scenario"]: v for k, v in query(f'authflow_scenario_success{{tenant="{tenant}"}}').items()}


def rss_and_fds():
    with open(f"/proc/{MONITOR_PID}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{MONITOR_PID}/fd"))


def threads():
    # Swift has no count of its tasks; the process's threads (the cooperative pool, NIO's event
    # loops, the HTTP client's) and the runs in flight (a gauge) stand for it.
    with open(f"/proc/{MONITOR_PID}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


def all_pass(tenant):
    def check():
        seen = success(tenant)
        return len(seen) == SCENARIOS and all(v == 1 for v in seen.values()), seen
    return check


until("the monitor is ready", lambda: (get(MONITOR + "/readyz")[0] == 200, "readyz"), limit=120)
until("Prometheus scrapes it", lambda: (query('up{job="authflow"}') and list(query('up{job="authflow"}').values())[0] == 1, query('up{job="authflow"}')), limit=120)
for tenant in TENANTS:
    until(f"every flow succeeds on {tenant}, as Prometheus sees it", all_pass(tenant))
rules = json.loads(get(PROMETHEUS + "/api/v1/rules")[1])["data"]["groups"]
loaded = sum(len(group["rules"]) for group in rules)
if loaded != 8:
    raise SystemExit(f"Prometheus loaded {loaded} alerting rules from monitor/alerts.yml, not 8")
print("monitor-ci: Prometheus evaluates the 8 alerting rules")
keys = query("authflow_tenant_jwks_keys")
if len(keys) != 2 or min(keys.values()) < 1:
    raise SystemExit(f"signing keys of both tenants expected: {keys}")
expiry = query('authflow_tenant_token_expiry_seconds{token="id"}')
if len(expiry) != 2 or min(expiry.values()) <= 0:
    raise SystemExit(f"the ID tokens' expiry on both tenants expected: {expiry}")
baseline = rss_and_fds()

# A fault in the mock: its token endpoint answers 503.
results = json.loads(get(MONITOR + "/api/results")[1])
mock_url = next(t["url"] for t in results["tenants"] if t["name"] == "mock")
request("POST", mock_url.rstrip("/") + "/__mock/faults", {"endpoint": "/oauth/token", "kind": "status", "status": "503"})
print(f"monitor-ci: a fault injected into the mock at {mock_url}: /oauth/token answers 503")
started = time.time()


def mock_fails():
    seen = success("mock")
    failing = [s for s, v in seen.items() if v == 0]
    environment = query(f'increase(authflow_runs_total{{tenant="mock",result="environment"}}[30s])')
    return len(failing) >= 5 and sum(environment.values()) > 0, (seen, environment)


until("the mock's flows fail, as environment errors", mock_fails, limit=120)
still = success("conformance")
if len(still) != SCENARIOS or any(v != 1 for v in still.values()):
    raise SystemExit(f"django-oauth-toolkit's flows changed while the mock had the fault: {still}")
print("monitor-ci: django-oauth-toolkit's flows stay green meanwhile")
page = get(MONITOR + "/")[1]
if 'class="environment"' not in page:
    raise SystemExit("the status page shows no environment error")

request("DELETE", mock_url.rstrip("/") + "/__mock/faults")
print("monitor-ci: the fault cleared")
until("the mock's flows recover", all_pass("mock"), limit=120)

# The other tenant goes away and comes back: django-oauth-toolkit stopped, then started again.
subprocess.run(["conformance/stop"], check=True, stdout=subprocess.DEVNULL)
print("monitor-ci: django-oauth-toolkit stopped")


def provider_gone():
    seen = success("conformance")
    environment = query('increase(authflow_runs_total{tenant="conformance",result="environment"}[30s])')
    return all(v == 0 for v in seen.values()) and sum(environment.values()) > 0, (seen, environment)


until("its flows fail as environment errors", provider_gone, limit=120)
if any(v != 1 for v in success("mock").values()):
    raise SystemExit("the mock's flows failed while the other tenant was away")
subprocess.run(["conformance/start"], check=True, stdout=subprocess.DEVNULL)
print("monitor-ci: django-oauth-toolkit started again")
until("its flows recover", all_pass("conformance"), limit=120)

# SIGHUP reloads the files.
os.kill(MONITOR_PID, 1)
until(
    "SIGHUP reloads the files",
    lambda: (
        sum(query('authflow_monitor_reloads_total{result="success"}').values()) >= 2,
        query("authflow_monitor_reloads_total"),
    ),
    limit=60,
)

# No password or client secret of the profiles in any output.
outputs = [get(MONITOR + path)[1] for path in ["/metrics", "/api/results", "/"]]
for entry in json.loads(outputs[1])["scenarios"][:4]:
    outputs.append(get(MONITOR + "/report?id=" + urllib.parse.quote(entry["id"], safe=""))[1])
with open(os.path.join(os.environ["STATE"], "monitor.log")) as log:
    outputs.append(log.read())
secrets = ["Alice-Passw0rd!", "Bob-Passw0rd!", "web-client-secret", "hybrid-client-secret", "m2m-client-secret"]
for secret in secrets:
    for forms in (secret, urllib.parse.quote(secret, safe=""), json.dumps(secret)[1:-1]):
        if any(forms in output for output in outputs):
            raise SystemExit(f"a profile secret is in an output of the monitor")
print(f"monitor-ci: no profile secret in /metrics, /api/results, the status page, {len(outputs) - 4} reports or the log")

# The soak: both tenants' flows every 2 s for SOAK_SECONDS; memory and descriptors sampled.
soak = int(os.environ.get("SOAK_SECONDS", "180"))
samples = []
thread_counts = []
in_flight = []
runs_before = sum(query("authflow_runs_total").values())
deadline = time.monotonic() + soak
while time.monotonic() < deadline:
    samples.append(rss_and_fds())
    thread_counts.append(threads())
    in_flight.extend(query("authflow_monitor_runs_in_flight").values())
    time.sleep(10)
samples.append(rss_and_fds())
thread_counts.append(threads())
runs = sum(query("authflow_runs_total").values()) - runs_before
half = len(samples) // 2
first_half_peak = max(rss for rss, _ in samples[: max(1, half)])
last_peak = max(rss for rss, _ in samples[half:])
fds = [fd for _, fd in samples]
print(
    f"monitor-ci: soak of {soak}s, {runs:.0f} runs: RSS (KiB) {samples[0][0]} → {samples[-1][0]}, peak of the first half "
    f"{first_half_peak}, of the second {last_peak}; file descriptors {min(fds)}–{max(fds)}; threads "
    f"{min(thread_counts)}–{max(thread_counts)}; runs in flight at most {max(in_flight, default=0):.0f} (concurrency 4)"
)
if max(thread_counts) > min(thread_counts) + 4:
    raise SystemExit("the monitor's threads grew during the soak")
if max(in_flight, default=0) > 4:
    raise SystemExit("more runs in flight than the concurrency")
if last_peak > first_half_peak * 1.10 + 4096:
    raise SystemExit("the monitor's memory grew in the second half of the soak")
if max(fds) > min(fds) + 10:
    raise SystemExit("the monitor's file descriptors grew during the soak")
