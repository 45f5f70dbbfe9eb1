"""Streamable HTTP by hand, for what no SDK call exposes: a legacy session
opened on one `tool-examples mcp --http --state-url` process, a call whose
event stream breaks after its first events, and the stream resumed with
`Last-Event-ID` on another process, which must replay what followed from
the shared store. Then a session's standing stream may not be resumed by
another session.

Usage: python resume.py URL_A URL_B
"""

import http.client
import json
import sys
import time
from urllib.parse import urlsplit

VERSION = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


class Client:
    """Just enough HTTP/1.1 (the standard library's), one connection per
    request: answers read whole, or event streams read line by line."""

    def request(self, method: str, url: str, body=None, headers=None):
        connection, answer = self.open(method, url, body, headers)
        answer.text = answer.read().decode()
        connection.close()
        return answer

    def open(self, method: str, url: str, body=None, headers=None):
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, parts.path, body=data, headers=headers or {})
        answer = connection.getresponse()
        answer.status_code = answer.status
        return connection, answer


def lines_of(answer):
    """The lines of an event stream, until it ends."""
    while True:
        line = answer.readline()
        if not line:
            return
        yield line.decode().rstrip("\r\n")


def events(lines):
    """SSE events as (id, data) pairs, from an iterator of lines."""
    event_id, data = None, []
    for line in lines:
        if line == "":
            if data or event_id:
                yield event_id, "\n".join(data)
            event_id, data = None, []
        elif line.startswith("id:"):
            event_id = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())


def initialize_message(client_name: str) -> dict:
    """A legacy (2025-11-25) client's `initialize`."""
    return {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": VERSION,
            "capabilities": {},
            "clientInfo": {"name": client_name, "version": "1"},
        },
    }


def open_session(client: Client, url: str) -> dict:
    answer = client.request("POST", url, initialize_message("resume-check"), HEADERS)
    assert answer.status_code == 200, (answer.status_code, answer.text)
    session = answer.headers["mcp-session-id"]
    headers = {**HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION}
    done = client.request("POST", url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    assert done.status_code == 202, (done.status_code, done.text)
    return headers


def main(url_a: str, url_b: str) -> None:
    client = Client()
    headers = open_session(client, url_a)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "wait", "arguments": {"ms": 1500}, "_meta": {"progressToken": "p1"}},
    }
    # Read up to the first progress notification, then drop the stream.
    first_id = None
    connection, answer = client.open("POST", url_a, call, headers)
    assert answer.status_code == 200, answer.status_code
    assert answer.headers["content-type"].startswith("text/event-stream")
    for event_id, data in events(lines_of(answer)):
        if data and json.loads(data).get("method") == "notifications/progress":
            first_id = event_id
            break
    connection.close()
    assert first_id, "no progress event with an id came before the break"
    print("stream broken after event", first_id)

    # Resume it on the other process: the rest of the progress and the result.
    resumed = {**headers, "Last-Event-ID": first_id}
    replayed = []
    deadline_reads = 0
    while not any(message.get("id") == 1 for message in replayed):
        deadline_reads += 1
        assert deadline_reads < 20, f"the result never came: {replayed}"
        connection, answer = client.open("GET", url_b, None, resumed)
        assert answer.status_code == 200, (answer.status_code, answer.read())
        for event_id, data in events(lines_of(answer)):
            if not data:
                continue
            replayed.append(json.loads(data))
            resumed["Last-Event-ID"] = event_id
        connection.close()
        if not any(message.get("id") == 1 for message in replayed):
            time.sleep(0.3)
    progress = [m for m in replayed if m.get("method") == "notifications/progress"]
    result = next(m for m in replayed if m.get("id") == 1)
    assert progress, f"no progress after the break: {replayed}"
    assert result["result"]["isError"] is False, result
    print(f"resumed on the other process: {len(progress)} progress events and the result")

    # Another session may not read this one's standing stream.
    other = open_session(client, url_b)
    session = headers["Mcp-Session-Id"]
    stolen = client.request("GET", url_b, None, {**other, "Last-Event-ID": f"{session}:common/0-0"})
    assert stolen.status_code == 404, (stolen.status_code, stolen.text)
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
