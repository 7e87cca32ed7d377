import type { Block } from './block.js';

/** apt's errors that end an install of packages it cannot have: `E: Unable to locate package x`, `E: Package 'x' has no installation candidate`. */
const APT_ERROR = /^E: (?:Unable to locate package |Package '[^']+' has no installation candidate|Couldn't find any package by (?:glob|regex) )/;
/** apt starting again: every `apt-get install` and `apt-get update` begins by reading its lists. */
const APT_STARTS = /^Reading package lists\.\.\.(?: Done)?\s*$/;
/** How far below the error apt's next run is looked for. */
const MAX_SCAN = 2000;

/**
 * An apt error the step went on past: apt stops at its `E:` line and prints nothing after it, so apt
 * reading its package lists again below it means the script ran on (an `|| true`, a fallback install of
 * another package), and the failure that ended the step is later. Not the cause, so not quoted first.
 */
export function isSurvivedAptError(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (!APT_ERROR.test(text.get(b.header) ?? '')) return false;
  for (let n = b.end + 1; n <= b.end + MAX_SCAN; n++) {
    const t = text.get(n);
    if (t === undefined) return false;
    if (APT_STARTS.test(t)) return true;
  }
  return false;
}
