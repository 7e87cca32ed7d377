#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { runCli } from '../doors/cli.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, version: pkg.version });
process.exitCode = code;
