import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 4000;
/** Lines of one error kept as related: its stacks rarely pass a dozen frames; a runaway one is cut. */
const MAX_BLOCK = 30;
/** Errors read per log: valgrind repeats one bug per loop iteration; the first few say it all. */
const MAX_ERRORS = 50;
const PREFIX = /^==(\d+)== ?/;
// The error kinds Memcheck reports (and leak records when --leak-check counts them as errors).
const ERROR = /^(?:Invalid (?:read|write) of size \d+|Invalid (?:free|delete|delete\[\])\(\).*|Mismatched free\(\) \/ delete \/ delete \[\]|Conditional jump or move depends on uninitialised value\(s\)|Use of uninitialised value of size \d+|Syscall param .* (?:points to|contains) uninitialised byte\(s\)|Source and destination overlap in .*|Argument '.*' of function .* has a fishy .*|[\d,]+ (?:\([\d,]+ direct, [\d,]+ indirect\) )?bytes in [\d,]+ blocks are (?:definitely|possibly) lost in loss record .*|Process terminating with default action of signal \d+ .*)$/;
// `   at 0x109188: sum (a.c:5)`, `   by 0x1091F0: main (src/a.c:11)`, `   at 0x48417B4: malloc (in /usr/libexec/…so)`.
const FRAME = /^\s+(?:at|by) 0x[0-9A-Fa-f]+: (.+?) \((?:in (.+)|(.+?):(\d+))\)$/;
const LIBRARY = /^(?:\/usr\/|\/lib\/)|vg_replace_|vgpreload_/;

/** Reads Valgrind Memcheck errors (`==1== Invalid read of size 4` + `at 0x…: fn (file.c:5)` frames), pinned to the program's first frame. */
export const valgrindMatcher: Matcher = {
  id: 'valgrind',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let current: Signal | undefined;
    let pid = '';
    let errors = 0;
    for (const l of lines) {
      if (l.text.length > MAX_LINE || !l.text.startsWith('==')) continue;
      const p = PREFIX.exec(l.text);
      if (!p) continue;
      const body = l.text.slice(p[0].length);
      if (body === '' || (current && p[1] !== pid)) {
        current = undefined;
        continue;
      }
      if (ERROR.test(body)) {
        if (++errors > MAX_ERRORS) break;
        pid = p[1]!;
        const leak = body.includes(' lost in loss record ');
        current = { kind: 'diagnostic', message: body, tool: 'valgrind', severity: 'error', category: 'test',
          weight: leak ? 0.8 : 1, logLine: l.n, related: [] };
        out.push(current);
        continue;
      }
      if (!current) continue;
      if ((current.related!.length ?? 0) < MAX_BLOCK) current.related!.push(l.n);
      const f = FRAME.exec(body);
      if (!f || f[3] === undefined) continue;
      const own = !LIBRARY.test(f[3]) && !f[1]!.startsWith('vg_');
      const fn = f[1]!.split('(')[0]!.trim();
      if (own && current.path === undefined) {
        // The first frame in the program's own code is where the bad access (or the leaked allocation) happened.
        // It stays a frame too: the diff blamer follows frames onto the PR's changed lines.
        Object.assign(current, { path: f[3], line: Number(f[4]), symbol: fn });
      }
      out.push({ kind: 'frame', path: f[3], line: Number(f[4]), symbol: fn, message: `${fn} (${f[3]}:${f[4]})`, tool: 'valgrind',
        weight: own ? 0.6 : 0.05, logLine: l.n });
    }
    return out;
  },
};
