import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain ESM script without types, shared with the bench.
import { wildLogPath } from '../../scripts/wild-mirror-log.mjs';

/**
 * The path of fixtures/wild/<id>'s log: its committed log.txt, or the copy read from its fetched mirror
 * (fixtures/README.md, "Logs read from a mirror"); throws when that mirror is not on this machine (guard
 * such tests with `hasWildLog`).
 */
export function wildLog(id: string): string {
  const path = wildLogPath(id) as string | null;
  if (!path) throw new Error(`${id}: its mirror is not on this machine`);
  return path;
}

/** Whether fixtures/wild/<id>'s log can be read here (always for a committed one). */
export const hasWildLog = (id: string): boolean => (wildLogPath(id) as string | null) !== null;

/** The 1-based number of the first line of fixtures/wild/<id>'s log at or after line `from + 1` that matches `re`. */
export function wildLineNo(id: string, re: RegExp, from = 0): number {
  const lines = readFileSync(wildLog(id), 'utf8').split('\n');
  const i = lines.findIndex((l, k) => k >= from && re.test(l));
  if (i < 0) throw new Error(`${re} not in ${id}`);
  return i + 1;
}
