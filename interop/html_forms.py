"""The forms of an HTML page, read with the standard library only.

Shared by the interop clients (interop/common.py) and the bench's plain Python client
(bench/compare_client.py), which has no `requests` in its virtualenv: this module imports nothing
outside the standard library.
"""

from html.parser import HTMLParser


class Forms(HTMLParser):
    """The forms of a page: action, method, every named input (hidden fields included) and the
    named buttons in document order."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {"action": attrs.get("action") or "", "method": attrs.get("method") or "get", "fields": {}, "buttons": []}
            )
        elif tag == "input" and self.forms and attrs.get("name"):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value") or ""
        elif tag == "button" and self.forms and attrs.get("name"):
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value") or ""))
