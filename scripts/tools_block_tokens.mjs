// Tokens of the tools blocks tool-core/benches/tools_block.rs wrote, by
// OpenAI's o200k_base encoding (js-tiktoken, whose package carries the
// encoding's ranks: no download). Tokens of the JSON text as sent, which
// is not exactly what a provider renders for the model (each renders its
// tools its own way, and Anthropic's tokenizer is not published: its
// count_tokens endpoint gives its own figure), but the same measure for
// every mode, so the modes compare.
//
// Usage: node scripts/tools_block_tokens.mjs DIR   (prints a Markdown table)
import { readFileSync } from "node:fs";
import { getEncoding } from "js-tiktoken";

const dir = process.argv[2];
const encoding = getEncoding("o200k_base");
const tokens = (value) => encoding.encode(JSON.stringify(value)).length;
const modes = JSON.parse(readFileSync(`${dir}/modes.json`, "utf8"));

// What the model reads: every entry but the deferred ones, and those of
// the deferred that a search found (Anthropic expands a `tool_reference`
// into its definition; OpenAI's hosted search loads it into the
// conversation). An OpenAI namespace would read its functions the same way.
const deferred = (entry) => entry.defer_loading === true;
const name = (entry) => entry.name ?? entry.function?.name;

const rows = [];
for (const [mode, { loaded }] of Object.entries(modes)) {
  const tools = JSON.parse(readFileSync(`${dir}/${mode}.json`, "utf8"));
  const shown = tools.filter((entry) => !deferred(entry));
  const found = tools.filter((entry) => deferred(entry) && loaded.includes(name(entry)));
  rows.push({
    mode,
    entries: tools.length,
    sent: tokens(tools),
    before: tokens(shown),
    after: tokens(shown) + (found.length ? tokens(found) : 0),
  });
}
console.log("| mode | entries | tokens sent | tokens read before a search | read after it loads 5 |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const row of rows) {
  console.log(`| ${row.mode} | ${row.entries} | ${row.sent} | ${row.before} | ${row.after} |`);
}
