// Copies the non-TypeScript assets (tool descriptions, queries) next to the compiled code.
import { cpSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';

const SRC = 'src';
const OUT = 'dist';
const ASSETS = /\.(txt|scm|json)$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (ASSETS.test(name)) {
      const to = join(OUT, relative(SRC, p));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(p, to);
    }
  }
}
walk(SRC);
