#!/usr/bin/env python3
"""Derives the Form Post plans from the plans they are built on, as the OpenID Foundation's suite
derives them (AbstractFormPostTestPlan: the same modules, response_mode=form_post on every entry):
conformance-pack/form-post/ (oidcc-formpost-basic-certification-test-plan) from basic/,
conformance-pack/form-post-implicit/ (oidcc-formpost-implicit-certification-test-plan) from
implicit/ and conformance-pack/form-post-hybrid/ (oidcc-formpost-hybrid-certification-test-plan)
from hybrid/ — every authorization request with response_mode=form_post, the plan's tag, and a skip
where discovery does not list form_post. Edit the base modules, then run this; `--check` (a test
runs it) exits 1 when a derived folder is not what its base derives.

    python3 conformance-pack/tools/derive-form-post.py [--check]
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# (base folder, derived folder, base plan, derived plan, base tag, what the base plan is called)
PLANS = [
    ("basic", "form-post", "oidcc-basic-certification-test-plan", "oidcc-formpost-basic-certification-test-plan",
     "basic-op", "Basic"),
    ("implicit", "form-post-implicit", "oidcc-implicit-certification-test-plan",
     "oidcc-formpost-implicit-certification-test-plan", "implicit-op", "Implicit"),
    ("hybrid", "form-post-hybrid", "oidcc-hybrid-certification-test-plan",
     "oidcc-formpost-hybrid-certification-test-plan", "hybrid-op", "Hybrid"),
]
SKIP = """  - id: form_post_supported
    name: "response_mode=form_post, OAuth 2.0 Form Post Response Mode §2: the provider offers the Form Post plan"
    if: ${{ !contains(default(steps.configuration.discovery.response_modes_supported, ['query', 'fragment']), 'form_post') }}
    skip: response_modes_supported from the discovery endpoint does not list form_post (the default is query and fragment), so the provider does not offer the Form Post OP plan
"""
def add_form_post(lines):
    out=[]; i=0
    while i < len(lines):
        line=lines[i]; out.append(line)
        m=re.match(r'^(\s*)web_auth:\s*$', line)
        if m:
            ind=len(m.group(1))+2
            # find block extent
            j=i+1; block=[]
            while j < len(lines) and (lines[j].strip()=="" or len(lines[j])-len(lines[j].lstrip()) >= ind):
                block.append(lines[j]); j+=1
            done=False
            for k,b in enumerate(block):
                if re.match(r'^\s{%d}parameters:\s*\{' % ind, b):
                    block[k]=re.sub(r'parameters:\s*\{\s*', 'parameters: { response_mode: form_post, ', b, count=1); done=True; break
                if re.match(r'^\s{%d}parameters:\s*$' % ind, b):
                    block.insert(k+1, " "*(ind+2)+"response_mode: form_post"); done=True; break
            if not done:
                block.insert(0, " "*ind+"parameters: { response_mode: form_post }")
            out.extend(block); i=j; continue
        i+=1
    return out
def derive(src, plan_from, plan, tag, base):
    derived = {}
    for path in sorted(glob.glob(ROOT + "/" + src + "/*.yaml")):
        text = open(path).read()
        text = text.replace(f'"plan:{plan_from}"', f'"plan:{plan}"')
        text = text.replace(f", {tag}", ", formpost-op", 1)
        lines = text.split("\n")
        # description: prepend a sentence
        for k, l in enumerate(lines):
            if l.startswith("description: >"):
                lines[k + 1:k + 1] = [
                    f"  The Form Post OP plan's module ({plan}): the {base} module",
                    "  with response_mode=form_post, the response posted to the redirect URI as a form (OAuth 2.0 Form",
                    "  Post Response Mode §2: CheckCallbackHttpMethodIsPost, CheckCallbackContentTypeIsFormUrlEncoded,",
                    "  RejectAuthCodeInUrlQuery, RejectErrorInUrlQuery); skipped where discovery's",
                    f"  response_modes_supported lacks form_post. The {base} module:",
                ]
                break
        lines = add_form_post(lines)
        text = "\n".join(lines)
        # insert the plan skip after the configuration step (if any)
        if "  - id: configuration\n" in text:
            idx = text.index("  - id: configuration\n")
            nxt = text.index("\n  - id: ", idx + 5) + 1
            text = text[:nxt] + SKIP + text[nxt:]
        derived[os.path.basename(path)] = text
    return derived


stale = []
for src, dst, plan_from, plan, tag, base in PLANS:
    derived = derive(src, plan_from, plan, tag, base)
    DST = ROOT + "/" + dst
    if "--check" in sys.argv[1:]:
        existing = {os.path.basename(p): open(p).read() for p in glob.glob(DST + "/*.yaml")}
        stale += [f"{dst}/{name}" for name in sorted(set(derived) | set(existing)) if derived.get(name) != existing.get(name)]
        print(f"{dst}/: {len(derived)} modules, as {src}/ derives them")
    else:
        os.makedirs(DST, exist_ok=True)
        for name, text in derived.items():
            with open(os.path.join(DST, name), "w") as f:
                f.write(text)
        print(f"{dst}/: {len(derived)} modules written")
if stale:
    sys.exit("not what its base derives (run conformance-pack/tools/derive-form-post.py): " + ", ".join(stale))
