#!/usr/bin/env python3
"""Derives conformance-pack/form-post/ from conformance-pack/basic/, as the OpenID Foundation's suite
derives oidcc-formpost-basic-certification-test-plan from the Basic plan: the same modules, every
authorization request with response_mode=form_post, the plan's tag, and a skip where discovery does
not list form_post. Edit the Basic modules, then run this; `--check` (a test runs it) exits 1 when
form-post/ is not what the Basic modules derive.

    python3 conformance-pack/tools/derive-form-post.py [--check]
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SRC=ROOT+"/basic"; DST=ROOT+"/form-post"
PLAN="oidcc-formpost-basic-certification-test-plan"
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
derived = {}
for path in sorted(glob.glob(SRC+"/*.yaml")):
    text=open(path).read()
    text=text.replace('"plan:oidcc-basic-certification-test-plan"', f'"plan:{PLAN}"')
    text=text.replace(", basic-op", ", formpost-op", 1)
    lines=text.split("\n")
    # description: prepend a sentence
    for k,l in enumerate(lines):
        if l.startswith("description: >"):
            lines.insert(k+1, "  The Form Post OP plan's module (oidcc-formpost-basic-certification-test-plan): the Basic module")
            lines.insert(k+2, "  with response_mode=form_post, the response posted to the redirect URI as a form (OAuth 2.0 Form")
            lines.insert(k+3, "  Post Response Mode §2: CheckCallbackHttpMethodIsPost, CheckCallbackContentTypeIsFormUrlEncoded,")
            lines.insert(k+4, "  RejectAuthCodeInUrlQuery, RejectErrorInUrlQuery); skipped where discovery's")
            lines.insert(k+5, "  response_modes_supported lacks form_post. The Basic module:")
            break
    lines=add_form_post(lines)
    text="\n".join(lines)
    # insert the plan skip after the configuration step (if any)
    if "  - id: configuration\n" in text:
        idx=text.index("  - id: configuration\n")
        nxt=text.index("\n  - id: ", idx+5)+1
        text=text[:nxt]+SKIP+text[nxt:]
    derived[os.path.basename(path)] = text

if "--check" in sys.argv[1:]:
    existing = {os.path.basename(p): open(p).read() for p in glob.glob(DST + "/*.yaml")}
    stale = sorted(name for name in set(derived) | set(existing) if derived.get(name) != existing.get(name))
    if stale:
        sys.exit("form-post/ is not what basic/ derives (run conformance-pack/tools/derive-form-post.py): " + ", ".join(stale))
    print(f"form-post/: {len(derived)} modules, as basic/ derives them")
else:
    os.makedirs(DST, exist_ok=True)
    for name, text in derived.items():
        with open(os.path.join(DST, name), "w") as f:
            f.write(text)
    print(f"form-post/: {len(derived)} modules written")
