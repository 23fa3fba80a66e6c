// Writes the notices of every npm package bundled into app.js (found in esbuild's metafile),
// so the page served by chessd carries its third-party licenses (/licenses.txt).
// Usage: node tools/licenses.mjs <metafile.json> <out.txt>
import { readFileSync, writeFileSync } from "node:fs";

const [metafile, out] = process.argv.slice(2);
const meta = JSON.parse(readFileSync(metafile, "utf8"));
const packages = new Set();
for (const input of Object.keys(meta.inputs)) {
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) packages.add(m[1]);
}
/** License texts by SPDX id, committed under licenses/. */
const texts = {
  "Apache-2.0": "licenses/Apache-2.0.txt",
  "BSD-3-Clause": "licenses/BSD-3-Clause-protobuf.txt",
};
const sections = [
  "chessd spectator page: third-party software\n\n" +
    "The page's own code is chessd's (MIT OR Apache-2.0). Its script bundles these packages:\n",
];
const used = new Set();
for (const name of [...packages].sort()) {
  const pkg = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8"));
  const ids = String(pkg.license).match(/[A-Za-z0-9.-]+/g).filter((id) => id !== "AND" && id !== "OR");
  for (const id of ids) {
    if (!texts[id]) throw new Error(`${name}: no license text for ${id}`);
    used.add(id);
  }
  const repo = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url ?? "";
  const license = String(pkg.license).replace(/^\((.*)\)$/, "$1");
  sections.push(`- ${name} ${pkg.version} (${license}) ${repo}`.trimEnd());
}
for (const id of [...used].sort()) {
  sections.push(`\n\n===== ${id} =====\n\n${readFileSync(texts[id], "utf8").trimEnd()}`);
}
writeFileSync(out, `${sections.join("\n")}\n`);
