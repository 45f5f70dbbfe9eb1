// The official TypeScript SDK's OAuth client (ClientCredentialsProvider)
// against `tool-examples mcp --http` as an OAuth resource server: given the
// MCP URL and its client credentials only, the SDK finds the authorization
// server through the server's 401 and protected resource metadata, gets a
// token for this resource, and uses it; the scopes decide what it lists
// and may call.
// Usage: node oauth.mjs MCP_URL ISSUER
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import assert from "node:assert/strict";

const url = new URL(process.argv[2]);
const issuer = process.argv[3];

async function connect(clientId, clientSecret, scope) {
  const provider = new ClientCredentialsProvider({ clientId, clientSecret, scope, expectedIssuer: issuer });
  const client = new Client({ name: `interop-ts-${clientId}`, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  assert.ok(provider.tokens()?.access_token, "a token through discovery");
  return { client, provider };
}

const reader = await connect("reader", "reader-secret", "tools:read");
assert.equal(reader.provider.tokens().scope, "tools:read");
const readable = (await reader.client.listTools()).tools.map((tool) => tool.name).sort();
assert.deepEqual(readable, ["label", "list", "read", "wait"]);
const labelled = await reader.client.callTool({ name: "label", arguments: { value: "a", tags: ["b"] } });
assert.equal(labelled.isError, false);
await assert.rejects(
  reader.client.callTool({ name: "echo", arguments: { value: "Pi" } }),
  (error) => {
    console.log("reader calling echo:", error.constructor.name, error.message);
    return /\b403\b/.test(error.message);
  },
);
await reader.client.close();
console.log("reader: discovered, listed", readable, "and was refused echo");

const writer = await connect("writer", "writer-secret", "tools:read tools:write");
const every = (await writer.client.listTools()).tools.map((tool) => tool.name).sort();
assert.deepEqual(every, ["echo", "label", "list", "read", "upper", "wait", "write"]);
const echoed = await writer.client.callTool({ name: "echo", arguments: { value: "Pi" } });
assert.deepEqual(echoed.content, [{ type: "text", text: "Pi" }]);
await writer.client.close();
console.log("writer: listed every tool and called echo");
