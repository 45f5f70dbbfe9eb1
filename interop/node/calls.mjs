// The official TypeScript SDK against `tool-examples mcp --http`: list the
// tools, call them, and check what comes back, as a user's client would.
// Usage: node calls.mjs URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";

const url = new URL(process.argv[2]);
const client = new Client({ name: "interop-ts", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));
console.log("connected, protocol", client.getServerVersion()?.name);

const { tools } = await client.listTools();
assert.deepEqual(
  tools.map((tool) => tool.name).sort(),
  ["echo", "label", "list", "read", "upper", "wait", "write"],
);

const echoed = await client.callTool({ name: "echo", arguments: { value: "Pi" } });
assert.equal(echoed.isError, false);
assert.deepEqual(echoed.content, [{ type: "text", text: "Pi" }]);

// A tool error of a tool with an outputSchema reaches the caller as a
// result (the SDK checks structuredContent against the cached schema).
const refused = await client.callTool({ name: "list", arguments: { path: "/etc" } });
assert.equal(refused.isError, true);
assert.match(refused.content[0].text, /outside the root/);
assert.equal(refused.structuredContent, undefined);

// A success of the same tool: structuredContent conforms.
const listed = await client.callTool({ name: "list", arguments: { path: "." } });
assert.equal(listed.isError, false);
assert.equal(listed.structuredContent.path, ".");

// Bad arguments: a paired tool error, not a protocol error.
const bad = await client.callTool({ name: "echo", arguments: { value: 7 } });
assert.equal(bad.isError, true);

// Progress arrives before the result.
const progress = [];
const waited = await client.callTool(
  { name: "wait", arguments: { ms: 350 } },
  undefined,
  { onprogress: (update) => progress.push(update.message) },
);
assert.equal(waited.isError, false);
assert.ok(progress.length >= 2, `progress: ${JSON.stringify(progress)}`);

// Cancellation: the call ends at once, the server is told.
const controller = new AbortController();
const started = Date.now();
const cancelled = client
  .callTool({ name: "wait", arguments: { ms: 20000 } }, undefined, { signal: controller.signal })
  .then(() => "answered", (error) => `rejected: ${error.message ?? error}`);
setTimeout(() => controller.abort("enough"), 300);
const outcome = await cancelled;
assert.match(outcome, /rejected/);
assert.ok(Date.now() - started < 10000);
// The SDK sends notifications/cancelled on its own time: let it go out
// before the transport closes (the check reads the server's log for it).
await new Promise((resolve) => setTimeout(resolve, 500));

await client.close();
console.log("ok");
