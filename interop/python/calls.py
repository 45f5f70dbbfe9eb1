"""The official Python SDK against `tool-examples mcp --http`: list the tools,
call them, and check what comes back, as a user's client would.

Usage: python calls.py SERVER MODE
  SERVER: an http:// URL, or stdio:PROGRAM ARGS... (a server to start)
  MODE: auto, which negotiates the newest revision both sides speak, or
        legacy, the initialize handshake
"""

import sys
import time

import anyio
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters


def server_of(spec: str):
    if spec.startswith("stdio:"):
        program, *args = spec.removeprefix("stdio:").split()
        return StdioServerParameters(command=program, args=args)
    return spec


async def main(spec: str, mode: str) -> None:
    async with Client(server_of(spec), mode=mode) as client:
        version = client.session.protocol_version
        print("negotiated", version)
        expected = "2026-07-28" if mode == "auto" else "2025-11-25"
        assert version == expected, f"negotiated {version}, expected {expected}"

        tools = await client.list_tools()
        names = sorted(tool.name for tool in tools.tools)
        assert names == ["echo", "label", "list", "read", "upper", "wait", "write"], names

        echoed = await client.call_tool("echo", {"value": "Pi"})
        assert not echoed.is_error, echoed
        assert echoed.content[0].text == "Pi", echoed

        # A tool error of a tool with an outputSchema: a result for the model.
        refused = await client.call_tool("list", {"path": "/etc"})
        assert refused.is_error, refused
        assert "outside the root" in refused.content[0].text, refused
        assert refused.structured_content is None, refused

        listed = await client.call_tool("list", {"path": "."})
        assert not listed.is_error, listed
        assert listed.structured_content["path"] == ".", listed

        bad = await client.call_tool("echo", {"value": 7})
        assert bad.is_error, bad

        progress: list[str] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(message or str(value))

        waited = await client.call_tool("wait", {"ms": 350}, progress_callback=on_progress)
        assert not waited.is_error, waited
        assert len(progress) >= 2, progress

        started = time.monotonic()
        with anyio.move_on_after(0.3):
            await client.call_tool("wait", {"ms": 20000})
            raise AssertionError("the 20 s wait was not cancelled")
        assert time.monotonic() - started < 10
        # Let the cancellation go out before the connection closes.
        await anyio.sleep(0.5)
    print("ok")


anyio.run(main, sys.argv[1], sys.argv[2])
