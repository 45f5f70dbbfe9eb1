"""One call longer than the proxy's read timeout, through the official
Python SDK in legacy mode (2025-11-25, a session): with SSE polling the
server closes the call's stream first and the SDK reconnects with
`Last-Event-ID` until the answer; without it the proxy cuts the stream and
the answer is lost while the SDK waits to reconnect.

Usage: python long_call.py URL MS EXPECT
  MS: how long the `wait` tool waits (no progress asked, so nothing flows)
  EXPECT: answered (the answer must arrive) or lost (it must not, within
          twice the wait and 10 s)
"""

import sys

import anyio
from mcp.client.client import Client


async def main(url: str, ms: int, expect: str) -> None:
    answered = None
    async with Client(url, mode="legacy") as client:
        with anyio.move_on_after(ms / 1000 * 2 + 10):
            result = await client.call_tool("wait", {"ms": ms})
            answered = result.content[0].text
    print("answer:", answered)
    if expect == "answered":
        assert answered == f"waited {ms} ms", answered
    else:
        assert answered is None, f"answered {answered!r} without polling: the proxy did not cut"
    print("ok")


anyio.run(main, sys.argv[1], int(sys.argv[2]), sys.argv[3])
