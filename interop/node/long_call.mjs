// One call longer than the proxy's read timeout, through the official
// TypeScript SDK (2025-11-25): the server's SSE polling closes the call's
// stream first, and the SDK reconnects with Last-Event-ID until the answer.
// Usage: node long_call.mjs URL MS
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";

const url = new URL(process.argv[2]);
const ms = Number(process.argv[3]);
const client = new Client({ name: "interop-ts-long-call", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));
const result = await client.callTool(
  { name: "wait", arguments: { ms } },
  undefined,
  { timeout: ms * 2 + 10000 },
);
assert.deepEqual(result.content, [{ type: "text", text: `waited ${ms} ms` }]);
await client.close();
console.log("ok");
