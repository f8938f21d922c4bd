"""A real OTLP/HTTP trace receiver for monitor/ci/otlp: the OpenTelemetry project's own protobuf
definitions (PyPI `opentelemetry-proto`) decode what `authflow --otlp-endpoint` sends; each span is
written as one JSON line (trace and span ids in hex, parent, name, kind, attributes, status).

    python3 otlp_receiver.py PORT OUT.jsonl

Binds 127.0.0.1 only; takes at most 16 MiB a request; answers 200 with an empty
ExportTraceServiceResponse, 415 to anything but protobuf, 404 elsewhere. `GET /echo` answers the
request's headers as JSON (what a tenant would receive).
"""
import gzip
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

PORT, OUT = int(sys.argv[1]), sys.argv[2]
LIMIT = 16 * 1024 * 1024


def value(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        # /echo: the request's headers as JSON, so a scenario can show what a tenant receives
        # (the trace context authflow injects).
        if self.path != "/echo":
            self.send_error(404)
            return
        body = json.dumps({name.lower(): value for name, value in self.headers.items()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path != "/v1/traces":
            self.send_error(404)
            return
        length = int(self.headers.get("Content-Length", "0"))
        if length > LIMIT or "protobuf" not in self.headers.get("Content-Type", ""):
            self.send_error(415 if length <= LIMIT else 413)
            return
        body = self.rfile.read(length)
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        request = trace_service_pb2.ExportTraceServiceRequest()
        request.ParseFromString(body)
        with open(OUT, "a") as out:
            for resource_spans in request.resource_spans:
                service = {a.key: value(a.value) for a in resource_spans.resource.attributes}.get("service.name")
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        out.write(json.dumps({
                            "service": service,
                            "trace": span.trace_id.hex(),
                            "span": span.span_id.hex(),
                            "parent": span.parent_span_id.hex() or None,
                            "name": span.name,
                            "kind": span.kind,
                            "attributes": {a.key: value(a.value) for a in span.attributes},
                            "status": span.status.code,
                            "status_message": span.status.message,
                        }) + "\n")
        response = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(response)))
        self.end_headers()
        self.wfile.write(response)


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
