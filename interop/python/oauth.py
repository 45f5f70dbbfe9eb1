"""The official Python SDK's OAuth client against `tool-examples mcp --http`
as an OAuth resource server: with nothing but the MCP URL and its client
credentials, the SDK must find the authorization server through the
server's 401 and its protected resource metadata (RFC 9728), get a token
for this resource (RFC 8707), and use it. A read-only client sees and calls
only read-only tools; a call of another is refused with 403
insufficient_scope; a client with the write scope sees and calls them all.

Usage: python oauth.py MCP_URL ISSUER MODE
  MODE: auto (2026-07-28) or legacy (2025-11-25)
"""

import sys

import anyio
import httpx2
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

READ_ONLY = ["label", "list", "read", "wait"]
EVERY_TOOL = ["echo", "label", "list", "read", "upper", "wait", "write"]


class Memory:
    """TokenStorage in memory: each client starts with no token."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


def connect(url: str, issuer: str, mode: str, client_id: str, secret: str, scope: str):
    storage = Memory()
    provider = ClientCredentialsOAuthProvider(
        server_url=url, storage=storage, client_id=client_id, client_secret=secret,
        scope=scope, issuer=issuer,
    )
    http = httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(30, read=300))
    return Client(streamable_http_client(url, http_client=http), mode=mode), storage


async def main(url: str, issuer: str, mode: str) -> None:
    reader, storage = connect(url, issuer, mode, "reader", "reader-secret", "tools:read")
    async with reader as client:
        assert storage.tokens is not None, "the SDK got a token through discovery"
        assert storage.tokens.scope == "tools:read", storage.tokens
        tools = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert tools == READ_ONLY, f"a tools:read token lists {tools}"
        labelled = await client.call_tool("label", {"value": "a", "tags": ["b"]})
        assert not labelled.is_error, labelled
        try:
            refused = await client.call_tool("echo", {"value": "Pi"})
        except Exception as error:  # the 403 (and a failed step-up) surfaces as an error
            print("reader calling echo:", type(error).__name__, error)
        else:
            raise AssertionError(f"a tools:read token called echo: {refused}")
    print("reader: discovered, listed", tools, "and was refused echo")

    writer, storage = connect(url, issuer, mode, "writer", "writer-secret", "tools:read tools:write")
    async with writer as client:
        tools = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert tools == EVERY_TOOL, f"a tools:write token lists {tools}"
        echoed = await client.call_tool("echo", {"value": "Pi"})
        assert not echoed.is_error and echoed.content[0].text == "Pi", echoed
    print("writer: listed every tool and called echo")


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
