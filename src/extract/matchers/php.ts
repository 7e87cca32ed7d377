import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 4000;
// `PHP Parse error:  syntax error, unexpected token "return" in src/A.php on line 8` (php -l, CLI on
// stderr), `Parse error: … in /x/A.php on line 8` (display_errors on stdout), `PHP Fatal error:  Uncaught …`.
const ERROR = /^(?:PHP )?(Parse error|Fatal error|Warning|Deprecated): +(.*) in (\S.*?\.(?:php|phpt|inc|phtml))(?::| on line )(\d+)$/;
const UNCAUGHT = /^Uncaught /;
// A stack trace entry: `#0 /app/run.php(7): Acme\\Cart->discount()`.
const TRACE = /^#\d+ (\S.*?\.php)\((\d+)\): (.*)$/;

/** Reads PHP's own errors: `php -l` parse errors and the interpreter's fatal errors (`… in file.php on line N`). */
export const phpMatcher: Matcher = {
  id: 'php',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !text.includes(' error: ') && !text.includes('Warning: ') && !text.includes('Deprecated: ')) continue;
      const m = ERROR.exec(text);
      if (!m) continue;
      const [, kind, message, path, line] = m;
      const warning = kind === 'Warning' || kind === 'Deprecated';
      // An uncaught exception is the code failing at run time; a parse or compile-time fatal error stops it loading.
      const runtime = kind === 'Fatal error' && UNCAUGHT.test(message!);
      const related: number[] = [];
      const frames: Signal[] = [];
      // `Errors parsing src/A.php` (php -l) and an uncaught exception's `Stack trace:` / `#0 …` lines belong to it.
      for (let j = i + 1; j < lines.length && related.length < 20; j++) {
        const t = lines[j]!.text;
        if (!(t.startsWith('Errors parsing ') || t === 'Stack trace:' || t.startsWith('PHP Stack trace:') || /^(?:PHP )?(?:\s*\d+\. |#\d+ )/.test(t) || t.startsWith('  thrown in '))) break;
        related.push(lines[j]!.n);
        const f = TRACE.exec(t);
        if (f) frames.push({ kind: 'frame', path: f[1]!, line: Number(f[2]), message: f[3]!, tool: 'php', weight: f[1]!.includes('/vendor/') ? 0.05 : 0.6, logLine: lines[j]!.n });
      }
      out.push({ kind: 'diagnostic', path: path!, line: Number(line), message: `${kind}: ${message}`, tool: 'php',
        severity: warning ? 'warning' : 'error', category: runtime ? 'test' : 'compile', weight: warning ? 0.3 : 1, logLine: n, related });
      out.push(...frames);
    }
    return out;
  },
};
