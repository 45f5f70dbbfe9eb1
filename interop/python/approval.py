"""The official Python SDK's person answering `tool-examples mcp`'s approval
questions: `write` needs approval, so the server asks before it runs, by
elicitation/create (legacy mode, 2025-11-25) or by an InputRequiredResult
that the SDK drives itself (auto mode, 2026-07-28). Accept writes the file;
decline and cancel are tool errors and write nothing; a client without an
elicitation callback (so without the capability) is told why it cannot be
asked.

Usage: python approval.py SERVER MODE ROOT [without-sessions]
  SERVER: an http:// URL, or stdio:PROGRAM ARGS... (a server to start)
  MODE: auto (2026-07-28) or legacy (2025-11-25)
  ROOT: the directory the server's Files tools write in, to look at
  without-sessions: the server is --stateless and MODE is legacy: no
        question can reach this client, and every answer says so
"""

import sys
from pathlib import Path

import anyio
from mcp import types
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters


def server_of(spec: str):
    if spec.startswith("stdio:"):
        program, *args = spec.removeprefix("stdio:").split()
        return StdioServerParameters(command=program, args=args)
    return spec


class Person:
    """Answers each question with the next answer it is given."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.asked: list[str] = []

    async def __call__(self, context, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert params.mode == "form", params
        assert params.requested_schema.get("properties") == {}, params
        self.asked.append(params.message)
        action = self.answers.pop(0)
        return types.ElicitResult(action=action, content={} if action == "accept" else None)


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def main(spec: str, mode: str, root: str, without_sessions: bool) -> None:
    root_dir = Path(root)
    name = f"approval-{mode}-{'stdio' if spec.startswith('stdio:') else 'http'}"
    person = Person()
    async with Client(server_of(spec), mode=mode, elicitation_callback=person) as client:
        print("negotiated", client.session.protocol_version)

        if without_sessions:
            refused = await client.call_tool("write", {"path": f"{name}-a.txt", "content": "no"})
            assert refused.is_error, refused
            assert "this server serves without sessions" in text_of(refused), text_of(refused)
            assert person.asked == [], person.asked
            assert not (root_dir / f"{name}-a.txt").exists()
            print("ok")
            return

        person.answers.append("accept")
        written = await client.call_tool("write", {"path": f"{name}-a.txt", "content": "yes"})
        assert not written.is_error, written
        assert (root_dir / f"{name}-a.txt").read_text() == "yes"
        assert len(person.asked) == 1, person.asked
        question = person.asked[0]
        assert question.startswith("Allow write ("), question
        assert f'path: "{name}-a.txt"' in question, question
        assert 'content: "yes"' in question, question

        for action, says in [
            ("decline", "A person denied this call: they declined this call of write in the client"),
            ("cancel", "got none (a person dismissed the question about write without deciding)"),
        ]:
            person.answers.append(action)
            refused = await client.call_tool("write", {"path": f"{name}-{action}.txt", "content": "no"})
            assert refused.is_error, refused
            assert says in text_of(refused), text_of(refused)
            assert not (root_dir / f"{name}-{action}.txt").exists(), action
        assert len(person.asked) == 3, person.asked

        # A tool that needs no approval is not asked about.
        echoed = await client.call_tool("echo", {"value": "Pi"})
        assert not echoed.is_error, echoed
        assert len(person.asked) == 3, person.asked

    # No elicitation callback: the SDK declares no elicitation capability.
    async with Client(server_of(spec), mode=mode) as client:
        refused = await client.call_tool("write", {"path": f"{name}-b.txt", "content": "no"})
        assert refused.is_error, refused
        assert "this client cannot ask a person about write: no elicitation capability" in text_of(
            refused
        ), text_of(refused)
        assert not (root_dir / f"{name}-b.txt").exists()
    print("ok")


anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:] == ["without-sessions"])
