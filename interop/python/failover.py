"""The official Python SDK in legacy mode (a session) through a balancer
while one process behind it is killed: the SDK opens its session, calls,
says `ready` and waits for a line on stdin (the check kills a process
then), and calls again. Each later call is served by whichever process is
left, from the shared store, with no new `initialize` (the SDK would fail
with "Session terminated" on a 404).

Usage: python failover.py URL
"""

import sys

import anyio
from mcp.client.client import Client


async def main(url: str) -> None:
    async with Client(url, mode="legacy") as client:
        assert client.session.protocol_version == "2025-11-25", client.session.protocol_version
        for n in range(3):
            echoed = await client.call_tool("echo", {"value": f"before {n}"})
            assert not echoed.is_error and echoed.content[0].text == f"before {n}", echoed
        print("ready", flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)
        for n in range(6):
            echoed = await client.call_tool("echo", {"value": f"after {n}"})
            assert not echoed.is_error and echoed.content[0].text == f"after {n}", echoed
        progress: list[str] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(message or str(value))

        waited = await client.call_tool("wait", {"ms": 350}, progress_callback=on_progress)
        assert not waited.is_error, waited
        assert len(progress) >= 2, progress
    print("ok")


anyio.run(main, sys.argv[1])
