"""Checks the verdicts of a conformance run (conformance/run) against expected-verdicts.txt.

A module of a conformance test plan (a scenario tagged plan:NAME) is judged by its result in the
report's plan table, one per variant (a matrix instance: FILE[id_token+token] in the list, or FILE
for all of a file's variants), as the OpenID conformance suite gives it: passed, or the verdict the list
gives it (warning, review, skipped, failed) with its reason — a module that passes where the suite
would warn, or warns where it would pass, is as unexpected as a failure. Every other scenario must
have passed (its warnings are fine: a SHOULD is a warning) or have the listed skipped or failed.
Prints one line per unexpected verdict and per stale line of the list, and the warnings by tenant;
exits 1 when anything is unexpected.
"""

import fnmatch
import json
import sys


def main(report_path, expected_path):
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit(f"conformance: no report from authflow ({error})")
    expected = {}
    with open(expected_path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 3)
            if len(parts) != 4 or parts[2] not in VERDICTS:
                sys.exit(f"{expected_path}:{number}: expected 'TENANT FILE skipped|failed|warning|review REASON'")
            expected[(parts[0], parts[1])] = (parts[2], parts[3])
    scenarios = report.get("scenarios", [])
    if not scenarios:
        sys.exit("conformance: the run reported no scenario")
    # The plan modules' results: (tenant, file[variant]) -> passed | warning | review | skipped | failed | …
    modules = {}
    for plan in report.get("test_plans", []):
        for module in plan["modules"]:
            name = module["file"] + variant_suffix(module.get("variant"))
            modules[(module["tenant"] or report["run"]["tenant"], name)] = module
    problems = []
    seen = set()
    warnings = {}
    for scenario in scenarios:
        # A comparison run labels each instance with its tenant: not a variant.
        title = scenario.get("name", "").removesuffix(f" [tenant: {scenario['tenant']}]")
        name = scenario["file"] + variant_suffix(variant_of(title))
        key = (scenario["tenant"], name)
        if key not in expected:
            # A line without a variant stands for every variant of the file.
            key = (scenario["tenant"], scenario["file"])
        if key not in expected:
            # A line may name several files with a pattern (conformance-pack/form-post/*.yaml).
            key = next(
                (k for k in expected if k[0] == key[0] and "*" in k[1] and fnmatch.fnmatch(key[1], k[1])), key
            )
        status = scenario["status"]
        module = modules.get((scenario["tenant"], name))
        if module is not None:
            status = module["result"]
        warnings[scenario["tenant"]] = warnings.get(scenario["tenant"], 0) + scenario.get("warnings", 0)
        if key in expected:
            seen.add(key)
            verdict, reason = expected[key]
            if status != verdict:
                problems.append(f"{name} on {key[0]}: {status}, but expected-verdicts.txt says {verdict} ({reason})")
            else:
                print(f"conformance: expected {verdict}: {name} on {key[0]}: {reason}")
        elif status != "passed":
            detail = (module or {}).get("detail") or scenario.get("skip_reason") or first_problem(scenario)
            problems.append(f"{name} on {key[0]}: {status}" + (f" ({detail})" if detail else ""))
    for key in expected:
        if key not in seen:
            problems.append(f"{key[1]} on {key[0]}: listed in expected-verdicts.txt but not run")
    for tenant, count in sorted(warnings.items()):
        print(f"conformance: {count} warning(s) on {tenant} (SHOULDs the provider does not do; see the report)")
    for problem in problems:
        print(f"conformance: unexpected verdict: {problem}", file=sys.stderr)
    return 1 if problems else 0


VERDICTS = ("skipped", "failed", "warning", "review")


def variant_of(name):
    """The matrix values of an instance's name, `Title [axis: value, axis: value]`, or None."""
    if not name.endswith("]") or " [" not in name:
        return None
    inside = name[name.rindex(" [") + 2 : -1]
    return inside if ": " in inside else None


def variant_suffix(variant):
    """`[id_token+token]`: the variant's values as expected-verdicts.txt writes them (no spaces)."""
    if not variant:
        return ""
    values = [part.split(": ", 1)[1] if ": " in part else part for part in variant.split(", ")]
    return "[" + ",".join(value.replace(" ", "+") for value in values) + "]"


def first_problem(scenario):
    for step in scenario.get("steps", []):
        for problem in step.get("problems", []):
            if problem.get("severity", "error") == "error":
                return f"step '{step['id']}': {problem['message']}"
    return None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
