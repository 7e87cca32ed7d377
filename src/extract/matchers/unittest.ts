import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
const MAX_RELATED = 40;
// `FAIL: test_x (pkg.mod.Class.test_x)`; before 3.11 the parentheses hold only `pkg.mod.Class`, and a
// subTest adds ` [desc]` or ` (key=value)` after them.
const HEADER = /^(FAIL|ERROR): (\w+) \(([\w.]+)\)(.*)$/;
const RULE = /^(?:={20,}|-{20,})$/;
const RAN = /^Ran \d+ tests? in /;
const FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/;
// The exception line closes the traceback and is flush-left: `AssertionError: 1 != 2`, `KeyError: 'x'`.
const EXCEPTION = /^[A-Za-z_][\w.]*(?::|$)/;

interface Block { n: number; name: string; id: string; lines: LogLine[] }

/** One FAIL/ERROR block as a test signal: where the test stopped, the exception line, the diff below it. */
function toSignal(b: Block): Signal {
  const frames: { path: string; line: number; fn?: string }[] = [];
  let exc: LogLine | undefined;
  const after: number[] = [];
  for (const l of b.lines) {
    const f = FRAME.exec(l.text);
    if (f) {
      frames.push({ path: f[1]!, line: Number(f[2]), fn: f[3] });
      // A chained exception starts a new traceback: only the last exception line is the test's message.
      exc = undefined;
      after.length = 0;
    } else if (!exc && frames.length && EXCEPTION.test(l.text) && !l.text.startsWith('Traceback')) {
      exc = l;
    } else if (exc && l.text.trim() !== '' && after.length < MAX_RELATED) {
      after.push(l.n);
    }
  }
  // The test method's own frame is where the assertion is; failing that the outermost frame.
  const at = frames.find((f) => f.fn === b.name) ?? frames[0];
  const signal: Signal = {
    kind: 'test',
    symbol: b.id,
    message: exc?.text ?? b.lines.find((l) => l.text.trim() !== '' && !RULE.test(l.text))?.text ?? b.id,
    tool: 'unittest',
    category: 'test',
    weight: 0.9,
    logLine: exc?.n ?? b.n,
    related: after,
  };
  if (at) Object.assign(signal, { path: at.path, line: at.line });
  return signal;
}

/** Reads unittest reports: `FAIL:` / `ERROR:` blocks with their tracebacks and assertion diffs. */
export const unittestMatcher: Matcher = {
  id: 'unittest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let block: Block | null = null;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.text.length > MAX_LINE) continue;
      const h = l.text.startsWith('FAIL: ') || l.text.startsWith('ERROR: ') ? HEADER.exec(l.text) : null;
      // unittest always rules a block off with `====` above its header; without it this is some other tool.
      if (h && i > 0 && /^={20,}$/.test(lines[i - 1]!.text)) {
        if (block) out.push(toSignal(block));
        const name = h[2]!;
        const inParens = h[3]!;
        // 3.11+ already ends the dotted id with the method; older versions stop at the class.
        const id = inParens.endsWith(`.${name}`) ? inParens : `${inParens}.${name}`;
        block = { n: l.n, name, id: id + h[4]!, lines: [] };
        continue;
      }
      if (!block) continue;
      // The `====` before the next header or the `----` before `Ran N tests` ends the block.
      if (/^={20,}$/.test(l.text) || (/^-{20,}$/.test(l.text) && RAN.test(lines[i + 1]?.text ?? ''))) {
        out.push(toSignal(block));
        block = null;
        continue;
      }
      block.lines.push(l);
    }
    if (block) out.push(toSignal(block));
    return out;
  },
};
