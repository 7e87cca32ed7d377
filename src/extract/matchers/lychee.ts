import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Broken links read per log: a site-wide outage makes thousands; the first ones say enough. */
const MAX_LINKS = 100;
// lychee's terminal report: `[README.md]:` (0.10+; the per-input details under `Issues found in N input(s).`).
const CLI_INPUT = /^\[(\S.*?)\]:$/;
// A failed link: `✗ [404] https://x | Network error: Not Found` (≤ 0.14), `[404] https://x | Rejected status code …`
// (0.15+, indented under its input), `[ERROR]`, `[TIMEOUT]`.
const CLI_LINK = /^\s*(?:[✗⧖] )?\[(\d{3}|[A-Z]+)\] ((?:https?|ftp|file|mailto):\S+) \| (.+)$/;
// lychee-action's Markdown summary: `### Errors in docs/x.md`, then `* [404] [https://x](https://x) | Failed: …`.
const MD_INPUT = /^#{2,4} Errors in (\S.*)$/;
const MD_LINK = /\[(https?:\/\/[^\]\s]+|file:\/\/[^\]\s]+)\]\([^)\s]*\) \| (.+)$/;
const MD_STATUS = /\[(\d{3}|[A-Z]+)\] \[/;
// The counts restate the links above: `🔍 2 Total ✅ 0 OK 🚫 2 Errors` and the summary table's `| 🚫 Errors | 21 |`.
const SUMMARY = /🚫 [1-9]\d* Errors?\b|^\|\s*🚫 Errors\s*\|\s*[1-9]\d*\s*\|$/;

/**
 * Reads lychee's broken links: the terminal report's `[file]:` sections (`✗ [404] url | reason`) and
 * lychee-action's Markdown summary (`### Errors in file`, `* [404] [url](url) | reason`). The report names the
 * file but no line: the link is the symbol, which the locator can find in the file. A link listed before the
 * per-input details (verbose progress) is related to its entry there; the counts are restatements.
 */
export const lycheeMatcher: Matcher = {
  id: 'lychee',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const byKey = new Map<string, Signal>();
    // Progress lines name no input: kept until the details say which file each link is in.
    const early = new Map<string, number[]>();
    let input: { path: string; n: number } | undefined;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      const ci = CLI_INPUT.exec(text) ?? MD_INPUT.exec(text);
      if (ci) {
        input = { path: ci[1]!, n };
        continue;
      }
      if (SUMMARY.test(text)) {
        out.push({ kind: 'diagnostic', message: text.trim(), tool: 'lychee', category: 'lint', severity: 'error', weight: 0.3, logLine: n,
          restatement: true });
        continue;
      }
      if (!text.includes(' | ')) continue;
      const cli = CLI_LINK.exec(text);
      const md = cli ? null : input ? MD_LINK.exec(text) : null;
      if (!cli && !md) continue;
      const url = cli ? cli[2]! : md![1]!;
      const status = cli ? cli[1]! : MD_STATUS.exec(text)?.[1];
      const reason = (cli ? cli[3]! : md![2]!).trim();
      if (!input) {
        const seen = early.get(url);
        if (seen) seen.push(n);
        else if (early.size < MAX_LINKS) early.set(url, [n]);
        continue;
      }
      const key = `${input.path} ${url}`;
      const known = byKey.get(key);
      if (known) {
        known.related!.push(n);
        continue;
      }
      if (byKey.size >= MAX_LINKS) continue;
      const s: Signal = { kind: 'diagnostic', path: input.path, symbol: url,
        message: `broken link ${url}${status ? ` [${status}]` : ''}: ${reason}`, tool: 'lychee', severity: 'error', category: 'lint',
        weight: 0.8, logLine: n, related: [input.n, ...(early.get(url) ?? [])] };
      byKey.set(key, s);
      out.push(s);
    }
    // No per-input details (one input, or `--format` without them): the progress lines are the report.
    if (byKey.size === 0) {
      for (const [url, ns] of early) {
        out.push({ kind: 'diagnostic', symbol: url, message: `broken link ${url}`, tool: 'lychee', severity: 'error', category: 'lint',
          weight: 0.6, logLine: ns[0]!, related: ns.slice(1) });
      }
      out.sort((a, b) => a.logLine - b.logLine);
    }
    return out;
  },
};
