// The demo: lays out a bundled real failing build (a fixture recorded from a real jest run, wrapped as a
// GitHub Actions job log) as a git repo with its PR commit, and runs `redline diagnose` on it.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { layOutCase } from './lay-out-case.mjs';

const CASE = new URL('../fixtures/logs/jest-typeerror-in-source/', import.meta.url).pathname;
const { repo, base } = layOutCase(CASE);
const args = ['dist/bin/redline.js', 'diagnose', '--log', `${CASE}log.txt`, '--repo', repo, '--base', base, ...process.argv.slice(2)];
console.error(`$ redline diagnose --log fixtures/logs/jest-typeerror-in-source/log.txt --repo <checkout> --base <PR base>\n`);
const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
rmSync(repo, { recursive: true, force: true });
process.exitCode = r.status ?? 1;
