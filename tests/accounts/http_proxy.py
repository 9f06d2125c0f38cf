"""A real reverse proxy for tests, and a browser-like client that can pick its own address.

The proxy forwards every request to an upstream server and appends the address it received the
request from to ``X-Forwarded-For``, as nginx's ``$proxy_add_x_forwarded_for`` does. Clients
connect from different loopback addresses (127.0.0.2, 127.0.0.3, ...; Linux answers the whole
127.0.0.0/8), so the proxy sees different peers, as it would see different players.
"""

from __future__ import annotations

import http.client
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlencode, urlsplit

_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "upgrade", "trailer"}


def _handler_for(upstream: str) -> type[BaseHTTPRequestHandler]:
    target = urlsplit(upstream)

    class Forward(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
            seen = self.headers.get("X-Forwarded-For")
            peer = self.client_address[0]
            headers["X-Forwarded-For"] = f"{seen}, {peer}" if seen else peer
            headers["Host"] = target.netloc
            conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            try:
                conn.request(self.command, self.path, body=body, headers=headers)
                answer = conn.getresponse()
                data = answer.read()
            finally:
                conn.close()
            self.send_response(answer.status)
            for name, value in answer.getheaders():
                if name.lower() not in _HOP_BY_HOP | {"content-length"}:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = _forward
        do_POST = _forward
        do_HEAD = _forward

    return Forward


@contextmanager
def reverse_proxy(upstream: str) -> Iterator[str]:
    """Serve a proxy to ``upstream`` on 127.0.0.1 for the duration; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(upstream))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """Cookies and CSRF like a browser, connecting from ``source`` (a loopback address)."""

    def __init__(self, base: str, source: str) -> None:
        self.base = urlsplit(base)
        self.source = source
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        conn = http.client.HTTPConnection(
            self.base.hostname, self.base.port, timeout=30, source_address=(self.source, 0)
        )
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            text = answer.read().decode("utf-8", "replace")
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie":
                    key, _eq, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            return answer.status, text
        finally:
            conn.close()

    def post_form(
        self, path: str, form: dict[str, str], headers: dict[str, str] | None = None
    ) -> int:
        """GET the page for its CSRF token, then POST the form; the POST's status."""
        _status, page = self.request("GET", path, headers=headers)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None, page[:500]
        status, _text = self.request(
            "POST", path, form={**form, "csrfmiddlewaretoken": token.group(1)}, headers=headers
        )
        return status
