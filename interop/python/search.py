"""The official Python SDK against `tool-examples mcp --defer-all-except echo`:
what its `tool_search` finds joins its session's tools/list, and the SDK
(which caches tools/list) is told to list again.

Usage: python search.py SERVER MODE [round-robin]
  SERVER: an http:// URL, or stdio:PROGRAM ARGS... (a server to start)
  MODE: legacy (a session: the search loads what it finds) or auto
        (2026-07-28, no session: every tool is listed from the start)
  round-robin: the requests reach several processes sharing a store; the
        list_changed is sent by the process that ran the search, on the
        event stream there, so it is not waited for: the next tools/list,
        whichever process answers it, shows the tools
"""

import sys

import anyio
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

CORE = ["echo", "tool_search"]
EVERY = ["echo", "label", "list", "read", "tool_search", "upper", "wait", "write"]


def server_of(spec: str):
    if spec.startswith("stdio:"):
        program, *args = spec.removeprefix("stdio:").split()
        return StdioServerParameters(command=program, args=args)
    return spec


async def names(client: Client) -> list[str]:
    return sorted(tool.name for tool in (await client.list_tools()).tools)


async def main(spec: str, mode: str, round_robin: bool) -> None:
    changed = anyio.Event()

    async def on_message(message) -> None:
        # Older SDKs wrap a notification in a RootModel, newer ones do not.
        notification = getattr(message, "root", message)
        if getattr(notification, "method", None) == "notifications/tools/list_changed":
            changed.set()

    async with Client(server_of(spec), mode=mode, message_handler=on_message) as client:
        print("negotiated", client.session.protocol_version)
        if mode == "auto":
            # No session to keep what a search finds: every tool is listed.
            assert await names(client) == EVERY, await names(client)
            print("search (no session): OK")
            return
        assert await names(client) == CORE, await names(client)

        found = await client.call_tool("tool_search", {"query": "upper-case text"})
        assert not found.is_error, found
        assert "upper" in found.structured_content["found"], found

        if not round_robin:
            with anyio.fail_after(10):
                await changed.wait()
            print("told: notifications/tools/list_changed")
        listed = await names(client)
        # What the search found, no more: the others stay deferred.
        expected = sorted(set(CORE) | set(found.structured_content["found"]))
        assert listed == expected, f"listed {listed}, expected {expected}"
        assert listed != EVERY, listed

        shouted = await client.call_tool("upper", {"text": "found"})
        assert not shouted.is_error, shouted
        assert shouted.content[0].text == "FOUND", shouted
    print("search:", listed, "OK")


anyio.run(main, sys.argv[1], sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "round-robin")
