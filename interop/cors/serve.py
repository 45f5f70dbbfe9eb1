"""The web server of the CORS check (interop/checks/cors.sh): it serves
interop/cors/page.html to the browser, under whatever host name the browser
asked for (the page's origin is that name and this port: one server is two
origins, app.cors.test and evil.cors.test, mapped to 127.0.0.1 by the
browser), and takes the page's report back.

- GET /page.html?...: the page; its query says what to do
- POST /report?role=NAME: the page's JSON report, written to
  OUT_DIR/NAME.json (whole: written aside, then renamed, so a reader never
  sees half of it)

Usage: python serve.py OUT_DIR
Prints `listening on PORT` once it serves; logs each request on stderr.
"""

import json
import os
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")


def main(out_dir: str) -> None:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt, *args):
            sys.stderr.write(f"page server ({self.headers.get('Host')}): " + (fmt % args) + "\n")

        def answer(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if urllib.parse.urlsplit(self.path).path == "/page.html":
                with open(PAGE, "rb") as page:
                    self.answer(200, page.read(), "text/html; charset=utf-8")
            else:
                self.answer(404, b"not found\n", "text/plain")

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            role = urllib.parse.parse_qs(url.query).get("role", [""])[0]
            if url.path != "/report" or not role.isalnum():
                return self.answer(404, b"not found\n", "text/plain")
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                json.loads(body)
            except ValueError:
                return self.answer(400, b"not JSON\n", "text/plain")
            path = os.path.join(out_dir, f"{role}.json")
            with open(path + ".part", "wb") as out:
                out.write(body)
            os.replace(path + ".part", path)
            self.answer(204, b"", "text/plain")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1])
