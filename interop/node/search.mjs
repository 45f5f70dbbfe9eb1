// The official TypeScript SDK against `tool-examples mcp --defer-all-except
// echo`: what its tool_search finds joins its session's tools/list, and
// the SDK, told by notifications/tools/list_changed, lists again by itself
// (its listChanged handler).
// Usage: node search.mjs URL [round-robin]
//   round-robin: several processes share a store; the list_changed goes
//   out on the event stream of the process that ran the search, so it is
//   not waited for: the next tools/list, from any process, shows the tools.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";

const url = new URL(process.argv[2]);
const roundRobin = process.argv[3] === "round-robin";
let refetched;
const told = new Promise((resolve) => {
  refetched = resolve;
});
const client = new Client(
  { name: "interop-ts-search", version: "1.0.0" },
  {
    listChanged: {
      tools: {
        onChanged: (error, tools) => {
          if (!error) refetched(tools.map((tool) => tool.name).sort());
        },
      },
    },
  },
);
await client.connect(new StreamableHTTPClientTransport(url));

const names = async () => (await client.listTools()).tools.map((tool) => tool.name).sort();
assert.deepEqual(await names(), ["echo", "tool_search"]);

const found = await client.callTool({ name: "tool_search", arguments: { query: "upper-case text" } });
assert.equal(found.isError, false);
assert.ok(found.structuredContent.found.includes("upper"), JSON.stringify(found));

let listed;
if (roundRobin) {
  listed = await names();
} else {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("not told within 10 s")), 10000));
  listed = await Promise.race([told, timeout]);
  console.log("told; the SDK listed again:", listed);
}
// What the search found, no more: the others stay deferred.
const expected = [...new Set(["echo", "tool_search", ...found.structuredContent.found])].sort();
assert.deepEqual(listed, expected);
assert.ok(listed.length < 8, `not every tool: ${listed}`);

const shouted = await client.callTool({ name: "upper", arguments: { text: "found" } });
assert.equal(shouted.isError, false);
assert.deepEqual(shouted.content, [{ type: "text", text: "FOUND" }]);
await client.close();
console.log("search:", listed, "OK");
