// npm records every platform's optional binary in package-lock.json when the registry has it.
// The registry this project is built against lacks some (e.g. Biome's and msgpackr's builds for
// other operating systems); npm then lists them as wanted but writes no entry, and `npm ci`
// refuses the lockfile ("Missing: … from lock file"). This drops exactly those dangling names.
// Run it after `npm install` changes the lockfile (it is idempotent).
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((key) => key.replace(/^.*node_modules\//, '')));
let pruned = 0;
for (const entry of Object.values(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!present.has(name)) {
      delete entry.optionalDependencies[name];
      pruned++;
    }
  }
}
if (pruned) fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  pruned
    ? `pruned ${pruned} unavailable optional dependencies from package-lock.json`
    : 'package-lock.json: nothing to prune',
);
