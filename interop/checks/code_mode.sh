# Code mode over MCP (issue 39): `tool-examples mcp --code-mode` with an
# upstream of the official Python SDK (interop/python/env_server.py), driven
# by the Python SDK's client as a host would. The host lists run_code
# beside the tools, its description declares them all (the upstream's
# py__add included) as TypeScript, and one call of run_code runs a program
# that calls the example tools and the upstream's, concurrently, through
# the server: only what it prints and returns comes back. A program that
# loops for ever ends at its time limit (`--code-time-limit`), as a tool
# error naming it.
source "$(dirname "$0")/../lib.sh"

SERVER="py=$PY $ROOT/interop/python/env_server.py"
start_mcp code --http 127.0.0.1:0 --root "$SCRATCH" --code-mode --code-time-limit 2 --upstream "$SERVER"
"$PY" - "http://$ADDRESS/mcp" <<'PY' || fail "code mode through the Python SDK"
import sys
import anyio
from mcp.client.client import Client


async def main(url):
    async with Client(url, mode="legacy") as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        # The upstream may be late: wait for its tools to be served.
        for _ in range(100):
            if "py__add" in listed:
                break
            await anyio.sleep(0.1)
            listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "run_code" in listed and "py__add" in listed, sorted(listed)
        described = listed["run_code"].description
        assert "py__add(args: {" in described, described
        # Its output schema is the return type: the script gets the structured value.
        assert "result: number;" in described, described
        assert "upper(args: {" in described, described

        program = """
            const [sum, shout] = await Promise.all([
                tools.py__add({ a: 20, b: 22 }),
                tools.upper({ text: "from code" }),
            ]);
            const echoes = await Promise.all([1, 2, 3].map((n) => tools.echo({ value: String(n) })));
            console.log(shout, echoes.join("+"));
            return { sum: sum.result };
        """
        ran = await client.call_tool("run_code", {"code": program})
        assert not ran.is_error, ran
        text = ran.content[0].text
        assert text == 'FROM CODE 1+2+3\n[returned] {"sum":42}\n', text
        assert ran.structured_content is None or ran.structured_content.get("calls") == 5, ran

        spun = await client.call_tool("run_code", {"code": "while (true) {}"})
        assert spun.is_error, spun
        assert "time limit of 2 s" in spun.content[0].text, spun
    print("code mode over MCP: OK")


anyio.run(main, sys.argv[1])
PY
echo "code mode passed"
