// Compares one run of the conformance suite with expected-failures.txt, for
// interop/checks/conformance.sh.
//
// Usage: node compare.mjs MODE REVISION LIST RESULTS EXPECTED
//   MODE      server or client
//   REVISION  the protocol revision the run was filtered to (--spec-version)
//   LIST      what `conformance list --MODE --spec-version REVISION` printed:
//             every scenario that must have a result
//   RESULTS   the run's -o directory: a checks.json per scenario
//   EXPECTED  expected-failures.txt
//
// A scenario fails when any of its checks is FAILURE or WARNING: the suite's
// own rule for its --expected-failures baseline (dist/index.js, the function
// that sorts scenarios into expectedFailures, unexpectedFailures and
// staleEntries), not the looser one of its summary, which passes warnings.
// A scenario with no checks.json failed too (the suite or the program under
// test broke before it could say). Exits 1 on any failure not listed, any
// listed scenario that passes, and any malformed line.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const [mode, revision, listFile, resultsDir, expectedFile] = process.argv.slice(2);
if (!["server", "client"].includes(mode) || !expectedFile) {
  console.error("usage: node compare.mjs server|client REVISION LIST RESULTS EXPECTED");
  process.exit(2);
}

// `  - tools-list [2025-06-18,2025-11-25]`
const scenarios = readFileSync(listFile, "utf8")
  .split("\n")
  .map((line) => line.match(/^\s+- (\S+) \[/))
  .filter(Boolean)
  .map((match) => match[1]);
if (scenarios.length === 0) {
  console.error(`no ${mode} scenarios in ${listFile}`);
  process.exit(1);
}

// Where the suite saves a scenario's checks: `server-<scenario>-<stamp>/`
// for a server, `<scenario>-<stamp>/` for a client (auth scenarios, named
// `auth/...`, a directory deeper); the stamp is an ISO time with `-` for
// `:` and `.`.
const stamp = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const results = new Map();
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    let checksFile = join(path, "checks.json");
    try {
      statSync(checksFile);
    } catch {
      walk(path);
      continue;
    }
    let scenario = relative(resultsDir, path).replace(stamp, "");
    if (mode === "server") scenario = scenario.replace(/^server-/, "");
    results.set(scenario, JSON.parse(readFileSync(checksFile, "utf8")));
  }
}
walk(resultsDir);

// `scenario revision # reason`; client scenarios as `client:<scenario>`.
const problems = [];
const expected = new Map();
readFileSync(expectedFile, "utf8")
  .split("\n")
  .forEach((line, index) => {
    const text = line.trim();
    if (text === "" || text.startsWith("#")) return;
    const match = text.match(/^(\S+)\s+(\S+)\s+#\s*(\S.*)$/);
    if (!match) {
      problems.push(`${expectedFile}:${index + 1}: not \`scenario revision # reason\`: ${text}`);
      return;
    }
    let [, name, lineRevision, reason] = match;
    const lineMode = name.startsWith("client:") ? "client" : "server";
    name = name.replace(/^client:/, "");
    if (lineMode !== mode || lineRevision !== revision) return;
    if (!scenarios.includes(name)) {
      problems.push(`${expectedFile}:${index + 1}: ${name} is not a ${mode} scenario of ${revision}`);
    } else if (expected.has(name)) {
      problems.push(`${expectedFile}:${index + 1}: ${name} ${revision} is listed twice`);
    }
    expected.set(name, reason);
  });

let passed = 0;
for (const scenario of scenarios) {
  const checks = results.get(scenario);
  const bad = checks
    ? checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING")
    : [{ status: "FAILURE", id: scenario, errorMessage: "no result: the scenario did not finish" }];
  const reason = expected.get(scenario);
  if (bad.length === 0 && reason === undefined) {
    passed += 1;
    console.log(`pass              ${scenario}`);
  } else if (bad.length === 0) {
    console.log(`STALE             ${scenario}`);
    problems.push(`${scenario} (${mode}, ${revision}) passes now: remove its line from ${expectedFile}`);
  } else if (reason !== undefined) {
    console.log(`expected failure  ${scenario}  # ${reason}`);
  } else {
    console.log(`FAIL              ${scenario}`);
    const why = bad.map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
    problems.push(`${scenario} (${mode}, ${revision}) failed and is not expected to:\n    ${why.join("\n    ")}`);
  }
}
console.log(`${mode} ${revision}: ${passed} passed, ${expected.size} expected failures, of ${scenarios.length}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(`FAILED: ${problem}`);
  process.exit(1);
}
