import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isLibraryPath, parseV8Frame, type V8Frame } from './frames-v8.js';

/** Longer lines are bundles or serialized blobs, not a Playwright header: skipping them bounds the regexes. */
const MAX_LINE = 2000;
/** Lines of one failure kept as related: the error, its diff, the code frame and the first frames. */
const MAX_BLOCK = 40;
// The list, line and dot reporters' failure header: `  1) [chromium] › tests/a.spec.ts:10:3 › Suite › test ───`.
// The `[project] › ` part is there when the config names projects; the rule of `─` is cut on long titles.
const HEADER = /^\s{0,4}(\d+)\) (?:\[([^\]]+)\] › )?(\S+?\.[cm]?[jt]sx?):(\d+):(\d+) › (.+?)\s*─*\s*$/;
// `Retry #1 ───` starts the same test's next attempt inside its block.
const RETRY = /^\s+Retry #\d+ ─/;
// The summary after the blocks: `  1 failed`, `  2 flaky`, `  3 passed (6.0s)`; it ends the last block.
const SUMMARY = /^\s{2}\d+ (?:failed|flaky|passed|skipped|interrupted|did not run)\b/;
// The first line that says what went wrong: `Error: …`, `TypeError: …`, or `Test timeout of 30000ms exceeded.`
const ERROR_LINE = /^\s+(?:(?:\w+)?Error(?:\s\[\w+\])?: |Test timeout of \d+ms exceeded|Worker teardown timeout)/;
const CODE_FRAME = /^\s+>?\s*\d+ \||^\s+\| /;
const CONTEXT = /^\s+(?:Error Context|attachment #\d+):/;

interface Block {
  header: number;
  title: string;
  file: string;
  line: number;
  message?: string;
  assertion: boolean;
  frames: V8Frame[];
  related: number[];
  /** Past `Retry #1`: the next attempt repeats the first, so the block is read from the first one alone. */
  done: boolean;
}

function toSignal(b: Block): Signal {
  const s: Signal = { kind: 'test', symbol: b.title, message: b.message ?? b.title, tool: 'playwright', category: 'test', weight: 0.9,
    logLine: b.header, related: b.related };
  // Playwright prints only the user's frames. An `expect` failure is the test's own line (the frame in the
  // spec); a thrown error is where it was thrown, the first frame outside libraries.
  const frames = b.frames.filter((f) => !isLibraryPath(f.path));
  const spec = frames.find((f) => f.path.replaceAll('\\', '/').endsWith(b.file.replaceAll('\\', '/')));
  const at = (b.assertion ? spec : undefined) ?? frames[0] ?? spec;
  if (at) Object.assign(s, { path: at.path, line: at.line, column: at.column });
  else Object.assign(s, { path: b.file, line: b.line });
  return s;
}

/**
 * Reads Playwright Test's failure blocks (list, line and dot reporters): `1) [project] › file:line:col › title`,
 * the error with its expected/received diff and code frame, and the `at` frames; pinned to the assertion's
 * line in the spec or, for a thrown error, where it was thrown. The github reporter's `::error file=…` lines
 * are read by workflow-commands.ts.
 */
export const playwrightMatcher: Matcher = {
  id: 'playwright',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const seen = new Set<string>();
    let block: Block | null = null;
    const close = () => {
      if (block) out.push(toSignal(block));
      block = null;
    };
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      const h = text.includes(') ') && text.includes(' › ') ? HEADER.exec(text) : null;
      if (h) {
        close();
        // The line reporter repeats nothing, but `--repeat-each` and retries print the same header again.
        const key = `${h[3]}:${h[4]} ${h[6]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        block = { header: n, title: h[6]!, file: h[3]!, line: Number(h[4]), assertion: false, frames: [], related: [], done: false };
        continue;
      }
      if (!block) continue;
      const b: Block = block;
      if (SUMMARY.test(text)) {
        close();
        continue;
      }
      if (RETRY.test(text)) b.done = true;
      if (b.done || b.related.length >= MAX_BLOCK || text.trim() === '' || CONTEXT.test(text)) continue;
      b.related.push(n);
      if (!b.message && ERROR_LINE.test(text)) {
        b.message = text.trim();
        b.assertion = /^Error: (?:expect|Timed out \d+ms waiting for expect)\b/.test(b.message);
        continue;
      }
      if (CODE_FRAME.test(text)) continue;
      const f = text.trimStart().startsWith('at ') ? parseV8Frame(text) : null;
      if (f) b.frames.push(f);
    }
    close();
    return out;
  },
};
