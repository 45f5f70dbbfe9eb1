"""The shared store stopped and started under a running
`tool-examples mcp --http --state-url` process: while Redis is down, a
request naming a session gets 503 with Retry-After (never a session served
from one process's memory), /readyz says the store is not ready and
/healthz stays 200; once Redis is back the process recovers by itself and
the session opened before the outage goes on.

Usage: python outage.py BASE_URL STOP_COMMAND START_COMMAND
  BASE_URL: http://HOST:PORT of one process (the script adds /mcp, /readyz, /healthz)
"""

import subprocess
import sys
import time

from resume import HEADERS, Client, open_session

CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"value": "x"}}}


def echo(client: Client, url: str, headers: dict):
    return client.request("POST", url, CALL, headers)


def main(base: str, stop: str, start: str) -> None:
    mcp = f"{base}/mcp"
    client = Client()
    headers = open_session(client, mcp)
    assert echo(client, mcp, headers).status_code == 200
    assert client.request("GET", f"{base}/readyz").status_code == 200

    subprocess.run(stop, shell=True, check=True)
    time.sleep(0.5)
    refused = echo(client, mcp, headers)
    assert refused.status_code == 503, (refused.status_code, refused.text)
    assert refused.headers.get("retry-after") == "1", refused.headers
    ready = client.request("GET", f"{base}/readyz")
    assert ready.status_code == 503, (ready.status_code, ready.text)
    assert "Redis at 127.0.0.1" in ready.text, ready.text
    assert client.request("GET", f"{base}/healthz").status_code == 200
    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "outage", "version": "1"}}}
    opening = client.request("POST", mcp, initialize, HEADERS)
    assert opening.status_code == 503, (opening.status_code, opening.text)
    print("store down: 503 with Retry-After, /readyz 503, /healthz 200")

    subprocess.run(start, shell=True, check=True)
    deadline = time.monotonic() + 20
    while client.request("GET", f"{base}/readyz").status_code != 200:
        assert time.monotonic() < deadline, "the process did not recover once the store was back"
        time.sleep(0.2)
    answer = echo(client, mcp, headers)
    assert answer.status_code == 200, (answer.status_code, answer.text)
    assert '"isError":false' in answer.text.replace(" ", ""), answer.text
    print("store back: ready again, and the session opened before goes on")
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
