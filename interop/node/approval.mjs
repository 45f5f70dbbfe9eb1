// The official TypeScript SDK's person answering `tool-examples mcp`'s
// approval questions (elicitation/create, revision 2025-11-25): `write`
// needs approval, so the server asks before it runs. Accept writes the file;
// decline and cancel are tool errors and write nothing; a client that
// declares no elicitation capability is told why it cannot be asked.
// Usage: node approval.mjs URL ROOT [without-sessions]
//   ROOT: the directory the server's Files tools write in, to look at
//   without-sessions: the server is --stateless: no question can reach
//   this client, and every answer says so
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const url = new URL(process.argv[2]);
const root = process.argv[3];
const withoutSessions = process.argv[4] === "without-sessions";
const text = (result) => result.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");

const answers = [];
const asked = [];
const client = new Client(
  { name: "interop-ts-approval", version: "1.0.0" },
  { capabilities: { elicitation: {} } },
);
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  assert.equal(request.params.mode ?? "form", "form");
  assert.deepEqual(request.params.requestedSchema.properties, {});
  asked.push(request.params.message);
  const action = answers.shift();
  return action === "accept" ? { action, content: {} } : { action };
});
await client.connect(new StreamableHTTPClientTransport(url));

if (withoutSessions) {
  const refused = await client.callTool({ name: "write", arguments: { path: "approval-ts-a.txt", content: "no" } });
  assert.equal(refused.isError, true);
  assert.match(text(refused), /this server serves without sessions/);
  assert.deepEqual(asked, []);
  assert.equal(existsSync(join(root, "approval-ts-a.txt")), false);
  await client.close();
  console.log("ok");
  process.exit(0);
}

answers.push("accept");
const written = await client.callTool({ name: "write", arguments: { path: "approval-ts-a.txt", content: "yes" } });
assert.equal(written.isError, false, JSON.stringify(written));
assert.equal(readFileSync(join(root, "approval-ts-a.txt"), "utf8"), "yes");
assert.equal(asked.length, 1);
assert.match(asked[0], /^Allow write \(/);
assert.match(asked[0], /path: "approval-ts-a\.txt"/);

for (const [action, says] of [
  ["decline", /^A person denied this call: they declined this call of write in the client/],
  ["cancel", /got none \(a person dismissed the question about write without deciding\)/],
]) {
  answers.push(action);
  const refused = await client.callTool({ name: "write", arguments: { path: `approval-ts-${action}.txt`, content: "no" } });
  assert.equal(refused.isError, true, action);
  assert.match(text(refused), says);
  assert.equal(existsSync(join(root, `approval-ts-${action}.txt`)), false, action);
}
assert.equal(asked.length, 3);
await client.close();

// No elicitation capability declared: not asked, told why.
const plain = new Client({ name: "interop-ts-plain", version: "1.0.0" });
await plain.connect(new StreamableHTTPClientTransport(url));
const refused = await plain.callTool({ name: "write", arguments: { path: "approval-ts-b.txt", content: "no" } });
assert.equal(refused.isError, true);
assert.match(text(refused), /this client cannot ask a person about write: no elicitation capability/);
assert.equal(existsSync(join(root, "approval-ts-b.txt")), false);
await plain.close();
console.log("ok");
