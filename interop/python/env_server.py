"""A stdio MCP server of the official Python SDK (mcp 2.x, MCPServer), for
interop/checks/upstream_python_stdio.sh: started by tool-examples as an
upstream, it answers calls and tells which environment variables it was
started with (names only: the values are none of the check's business).
"""

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("env-server")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def env_names() -> str:
    """The names of this process's environment variables, one a line, sorted."""
    return "\n".join(sorted(os.environ))


if __name__ == "__main__":
    server.run()
