# A third-party stdio upstream: a server of the official MCP Python SDK
# (interop/python/env_server.py, MCPServer), federated by `tool-examples
# call --upstream` and by `tool-examples mcp --upstream` (that one driven by
# the Python SDK's own client, so both ends of the two hops are the SDK's).
# Calls reach it and come back paired, bad arguments are refused against
# its inputSchema before they travel, and it starts with none of
# tool-examples' settings and secrets (TOOL_EXAMPLES_*) in its environment:
# only PATH, HOME, LANG and TMPDIR, those that are set.
source "$(dirname "$0")/../lib.sh"

SERVER="py=$PY $ROOT/interop/python/env_server.py"
# What a deployment of tool-examples has in its environment: its own
# settings, the tokens it serves and sends with, and something unrelated.
export TOOL_EXAMPLES_TOKEN=parent-serving-token
export TOOL_EXAMPLES_UPSTREAM_TOKEN=parent-upstream-token
export TOOL_EXAMPLES_ALLOWED_HOSTS=parent.example
export TOOL_EXAMPLES_ROOT="$SCRATCH"
export INTEROP_UNRELATED_SECRET=do-not-pass
export LANG=C.UTF-8
export TMPDIR="$SCRATCH"

# The environment an upstream may have: INHERITED_ENV, plus LC_CTYPE,
# which Python itself sets when it coerces a C locale to UTF-8 (PEP 538).
ALLOWED="PATH HOME LANG TMPDIR LC_CTYPE"

echo "== call --upstream: JSON lines in, paired results out"
printf '%s\n' \
  '{"id": "sum", "name": "py__add", "arguments": {"a": 2, "b": 40}}' \
  '{"id": "env", "name": "py__env_names", "arguments": {}}' \
  '{"id": "bad", "name": "py__add", "arguments": {"a": "two", "b": 1}}' \
  | TOOL_EXAMPLES_HTTP=127.0.0.1:1 timeout 60 "$BIN" call --upstream "$SERVER" >"$SCRATCH/call.jsonl" \
  || fail "call exited with $?"
cat "$SCRATCH/call.jsonl"

ALLOWED="$ALLOWED" "$PY" - "$SCRATCH/call.jsonl" <<'EOF'
import json, os, sys

answers = {}
for line in open(sys.argv[1]):
    answer = json.loads(line)
    answers[answer["toolCallId"]] = answer
assert sorted(answers) == ["bad", "env", "sum"], answers

total = answers["sum"]
assert total["toolName"] == "py__add", total
assert total["isError"] is False, total
assert total["content"] == [{"type": "text", "text": "42"}], total
assert total["details"] == {"result": 42}, total

bad = answers["bad"]
assert bad["isError"] is True, bad
assert bad["content"][0]["text"] == "Tool py__add failed: a: expected integer, got string \"two\"", bad

env = answers["env"]
assert env["isError"] is False, env
names = env["content"][0]["text"].split("\n")
print("the upstream's environment:", names)
leaked = [name for name in names if name.startswith("TOOL_EXAMPLES_") or name == "INTEROP_UNRELATED_SECRET"]
assert not leaked, f"leaked into the upstream: {leaked}"
unexpected = set(names) - set(os.environ["ALLOWED"].split())
assert not unexpected, f"more than the minimal environment: {sorted(unexpected)}"
for name in ["PATH", "HOME", "LANG", "TMPDIR"]:
    assert name in names, f"{name} is set here and should have been passed on: {names}"
print("call: OK")
EOF

echo "== mcp --upstream, driven by the Python SDK's client: two hops, SDK at both ends"
ALLOWED="$ALLOWED" SERVER="$SERVER" BIN="$BIN" timeout 120 "$PY" - <<'EOF'
import os
import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client


async def main():
    # The upstream is a Python process that may take more than the 5 s
    # tool-examples waits at start on a slow machine; it then serves without
    # the upstream's tools and announces them with list_changed when they
    # arrive. Either way the client ends up seeing them.
    changed = anyio.Event()

    async def on_message(message):
        # Older SDKs wrap a notification in a RootModel, newer ones do not.
        notification = getattr(message, "root", message)
        if getattr(notification, "method", None) == "notifications/tools/list_changed":
            changed.set()

    # The SDK's client passes a minimal environment of its own unless told
    # otherwise: give tool-examples this one, secrets and all.
    parameters = StdioServerParameters(
        command=os.environ["BIN"],
        args=["mcp", "--upstream", os.environ["SERVER"]],
        env=dict(os.environ),
    )
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await session.initialize()
            tools = await session.list_tools()
            names = [tool.name for tool in tools.tools]
            if "py__add" not in names:
                print("the upstream was late; waiting for list_changed")
                with anyio.fail_after(60):
                    await changed.wait()
                tools = await session.list_tools()
                names = [tool.name for tool in tools.tools]
            assert "py__add" in names and "py__env_names" in names, names
            add = next(tool for tool in tools.tools if tool.name == "py__add")
            assert add.input_schema["properties"]["a"]["type"] == "integer", add.input_schema

            total = await session.call_tool("py__add", {"a": 20, "b": 22})
            assert not total.is_error, total
            assert total.content[0].text == "42", total
            assert total.structured_content == {"result": 42}, total

            env = await session.call_tool("py__env_names", {})
            assert not env.is_error, env
            names = env.content[0].text.split("\n")
            print("the upstream's environment:", names)
            leaked = [n for n in names if n.startswith("TOOL_EXAMPLES_") or n == "INTEROP_UNRELATED_SECRET"]
            assert not leaked, f"leaked into the upstream: {leaked}"
            unexpected = set(names) - set(os.environ["ALLOWED"].split())
            assert not unexpected, f"more than the minimal environment: {sorted(unexpected)}"
    print("mcp: OK")


anyio.run(main)
EOF
