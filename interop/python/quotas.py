"""Limits per caller that hold across processes: `tool-examples mcp --http
--state-url` processes behind round robin, each started with
--max-sessions-per-caller 2, --max-in-flight-per-caller 2 and
--rate-per-caller 5 (burst 10). Every request here comes from one caller
(one address), and round robin spreads them over the processes, so only
counts kept in the shared store can refuse the third session, the third
call in flight and the requests past the burst.

Usage: python quotas.py URL
"""

import sys
import threading
import time

from resume import HEADERS, Client, open_session

CALL = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "wait", "arguments": {"ms": 2500}}}
PING = {"jsonrpc": "2.0", "id": 9, "method": "ping"}
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "quotas", "version": "1"}}}


def refused(answer, what: str) -> None:
    assert answer.status_code == 429, (what, answer.status_code, answer.text)
    assert int(answer.headers["retry-after"]) >= 1, answer.headers
    print(f"{what}: 429, Retry-After {answer.headers['retry-after']}: {answer.text.strip()}")


def main(url: str) -> None:
    client = Client()
    first = open_session(client, url)
    second = open_session(client, url)
    refused(client.request("POST", url, INITIALIZE, HEADERS), "a third session")

    # Two calls in flight (on whichever processes round robin picked), then a third.
    answers = []
    threads = [
        threading.Thread(target=lambda h=h: answers.append(client.request("POST", url, CALL, h)))
        for h in (first, second)
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.8)
    refused(client.request("POST", url, PING, first), "a third request in flight")
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [200, 200], [a.text for a in answers]
    time.sleep(0.3)
    assert client.request("POST", url, PING, first).status_code == 200, "the places in flight came back"

    # Closing a session frees its place.
    closed = client.request("DELETE", url, None, second)
    assert closed.status_code == 200, (closed.status_code, closed.text)
    third = open_session(client, url)
    print("a closed session's place went to a new one")

    # The rate: after a quiet spell a burst of 10 passes, then the rate
    # (5 a second) holds: 30 requests sent as fast as they go (well under
    # the 4 s that 5 a second would need to admit them all) meet 429s.
    time.sleep(2.5)
    statuses = [client.request("POST", url, PING, third).status_code for _ in range(30)]
    assert statuses[:9] == [200] * 9, statuses
    assert 429 in statuses, statuses
    answer = client.request("POST", url, PING, third)
    while answer.status_code == 200:
        answer = client.request("POST", url, PING, third)
    refused(answer, "a request past the rate")
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
