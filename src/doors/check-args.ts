import { readdirSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** Argument checks shared by the CLI's commands: each failure is a UsageError that says what to pass. */

/** The path must be a readable file (not a folder). */
export function mustBeFile(p: string, flag: string): void {
  let s;
  try {
    s = statSync(p);
  } catch {
    throw new UsageError(`${flag} ${p}: no such file; check the path (use - to read stdin)`);
  }
  if (s.isDirectory()) throw new UsageError(`${flag} ${p} is a directory: pass the log file itself`);
}

/** The path must be a readable folder. */
export function mustBeDir(p: string, flag: string): void {
  let ok = false;
  try {
    ok = statSync(p).isDirectory();
    if (ok) readdirSync(p);
  } catch {
    ok = false;
  }
  if (!ok) throw new UsageError(`${flag} ${p}: not a readable directory; pass the checkout's root folder`);
}
