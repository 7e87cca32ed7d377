import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Packages reported per log: a monorepo build stops at its first few broken packages. */
const MAX_PACKAGES = 20;
// Stack's closing report of a failed build: `--  While building package slug-0.1.0.0 (scroll up to its
// section to see the error) using:`, the Setup command, `    Process exited with code: ExitFailure 1`.
const BUILDING = /^--\s+While building (?:package|custom Setup\.hs for package) (\S+)/;
// …and of a failed test suite: `Test suite failure for package slug-0.1.0.0`, `    spec:  exited with: ExitFailure 1`.
const TEST = /^Test suite failure for package (\S+)$/;
const EXIT = /^\s+(?:Process exited with code: ExitFailure (-?\d+)|([\w-]+):\s+exited with: ExitFailure (-?\d+))$/;
/** Lines under the header searched for its exit line (the Setup command can wrap). */
const MAX_GAP = 4;

/**
 * Reads Stack's summary of what failed (`While building package …`, `Test suite failure for package …`):
 * no location of its own, since the error is GHC's or the test runner's above it, but it says which
 * package failed and whether it was the build or the tests.
 */
export const stackMatcher: Matcher = {
  id: 'stack',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length && out.length < MAX_PACKAGES; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE) continue;
      const b = text.startsWith('--') ? BUILDING.exec(text) : null;
      const t = b ? null : text.startsWith('Test suite failure') ? TEST.exec(text) : null;
      if (!b && !t) continue;
      const related: number[] = [];
      let exit: RegExpExecArray | null = null;
      for (let j = i + 1; j < lines.length && j - i <= MAX_GAP && !exit; j++) {
        related.push(lines[j]!.n);
        exit = EXIT.exec(lines[j]!.text);
      }
      const pkg = (b ?? t)![1]!;
      const code = exit?.[1] ?? exit?.[3];
      const what = b ? `building ${pkg}` : `the ${exit?.[2] ?? 'test'} suite of ${pkg}`;
      out.push({ kind: b ? 'diagnostic' : 'test', symbol: pkg, message: `stack: ${what} failed${code ? ` (exit ${code})` : ''}`, tool: 'stack',
        category: b ? 'compile' : 'test', weight: 0.3, logLine: lines[i]!.n, related: exit ? related : [] });
    }
    return out;
  },
};
