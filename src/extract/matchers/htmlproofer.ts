import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Failures read per log: a broken layout repeats one failure on every page; the first ones say enough. */
const MAX_FAILURES = 100;
/** Lines searched for a failure's description under its `* At file:line:` header (a blank line sits between). */
const MAX_GAP = 3;
// HTML-Proofer 4 and 5: `For the Links > Internal check, the following failures were found:`, then
// `* At _site/index.html:24:`, a blank line, and `  internally linking to nowhere.fooof, which does not exist`.
const CHECK = /^For the (.+) check, the following failures were found:$/;
const AT = /^\* At (\S.*?)(?::(\d+))?:$/;
// …and a failure with no page: `* External link http://x.biz/ failed with …`.
const BARE = /^\* (External link (\S+) failed.*)$/;
// HTML-Proofer 3: `- ./_site/b518.html`, then `  *  internally linking to x479.html, which does not exist (line 11)`.
const PAGE = /^- (\S.*\.html?)$/;
const ITEM = /^ {2}\* {2}(.*?)(?: \(line (\d+)\))?$/;
// What a failure names: the link or image it is about.
const TARGET = /(?:linking to|internal image|image|link|script|reference) (\S+?)(?:,| does| is| failed|$)/;

/** The link or image a description names (`internally linking to x.html, which …` → `x.html`). */
function targetOf(desc: string): string | undefined {
  return TARGET.exec(desc)?.[1];
}

/** Reads HTML-Proofer's failures (3's `- page` / `*  … (line N)` and 4–5's `* At page:N:`), pinned to the page and line. */
export const htmlprooferMatcher: Matcher = {
  id: 'htmlproofer',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let check: string | undefined;
    let page: { path: string; n: number } | undefined;
    const push = (desc: string, n: number, related: number[], path?: string, line?: number): void => {
      const s: Signal = { kind: 'diagnostic', message: check ? `${check}: ${desc}` : desc, tool: 'htmlproofer', severity: 'error',
        category: 'lint', weight: path ? 0.8 : 0.5, logLine: n, related };
      if (path) s.path = path;
      if (line) s.line = line;
      const target = targetOf(desc);
      if (target) s.symbol = target;
      out.push(s);
    };
    for (let i = 0; i < lines.length && out.length < MAX_FAILURES; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      const c = text.startsWith('For the ') ? CHECK.exec(text) : null;
      if (c) {
        check = c[1];
        page = undefined;
        continue;
      }
      const at = check && text.startsWith('* At ') ? AT.exec(text) : null;
      if (at) {
        // The description is the next non-blank line, indented by two.
        for (let j = i + 1; j < lines.length && j - i <= MAX_GAP; j++) {
          const d = lines[j]!.text;
          if (d.trim() === '') continue;
          if (/^ {2}\S/.test(d)) {
            push(d.trim(), n, [lines[j]!.n], at[1], at[2] ? Number(at[2]) : undefined);
            i = j;
          }
          break;
        }
        continue;
      }
      const bare = check ? BARE.exec(text) : null;
      if (bare) {
        push(bare[1]!, n, []);
        continue;
      }
      const p = text.startsWith('- ') ? PAGE.exec(text) : null;
      if (p) {
        page = { path: p[1]!, n };
        check = undefined;
        continue;
      }
      const item = page && text.startsWith('  *  ') ? ITEM.exec(text) : null;
      if (item) {
        // HTML-Proofer 3 quotes the offending tag on the line under the item.
        const next = lines[i + 1];
        const related = [page!.n, ...(next && /^ {5}</.test(next.text) ? [next.n] : [])];
        push(item[1]!, n, related, page!.path, item[2] ? Number(item[2]) : undefined);
      }
    }
    return out;
  },
};
