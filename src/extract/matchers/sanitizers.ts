import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 4000;
/** A report's header, access line, stacks and SUMMARY: enough for any real report, bounded for a runaway one. */
const MAX_BLOCK = 40;
/** Frames kept per report: the access stack and the allocation stack rarely pass 20 frames of the program. */
const MAX_FRAMES = 30;
// `==123==ERROR: AddressSanitizer: heap-buffer-overflow on address …`, `WARNING: ThreadSanitizer: data race (pid=1)`.
const HEADER = /^(?:==\d+==)?(?:ERROR|WARNING): (Address|Leak|Thread|Memory|UndefinedBehavior|Hardware(?:Address)?)Sanitizer: (.*?)(?: \(pid=\d+\))?$/;
// `    #3 0x55 in fn(int) /src/a.c:12:5`, `    #4 0x7f in _start (/build/t+0x3170)`, `    #0 0x4 in f a.c:12`.
const FRAME = /^\s*#(\d+) 0x[0-9a-f]+ (?:in (.+?) )?(?:\(([^()]*)\)|(\S+?):(\d+)(?::(\d+))?)$/;
const SUMMARY = /^SUMMARY: \w+Sanitizer: /;
// UBSan prints one line per finding: `src/a.c:12:25: runtime error: signed integer overflow: …`.
const UBSAN = /^(.+?):(\d+):(\d+): runtime error: (.*)$/;
// The toolchain's own sources (glibc, libsanitizer, libstdc++ headers): a report passes through them, a PR's bug does not live there.
const LIBRARY = /^(?:\.\.\/)+(?:sysdeps|csu|nptl|libio|stdlib|string|src\/libsanitizer)\/|^\/usr\/(?:include|lib|src)\/|^\/lib\/|\/compiler-rt\/|\/libsanitizer\//;
const RUNTIME_FN = /^(?:__interceptor_|__asan_|__lsan_|__tsan_|__msan_|__ubsan_|__sanitizer_|__libc_start|_start$|operator new|operator delete)/;

interface Frame { n: number; path: string; line: number; column?: number; fn?: string; own: boolean }

function frameOf(l: LogLine): Frame | 'module' | undefined {
  const m = FRAME.exec(l.text);
  if (!m) return undefined;
  if (m[4] === undefined) return 'module';
  const fn = m[2];
  const f: Frame = { n: l.n, path: m[4], line: Number(m[5]), own: !LIBRARY.test(m[4]) && !(fn && RUNTIME_FN.test(fn)) };
  if (m[6]) f.column = Number(m[6]);
  if (fn) f.fn = fn.split('(')[0]!.trim();
  return f;
}

function frameSignal(f: Frame): Signal {
  const s: Signal = { kind: 'frame', path: f.path, line: f.line, message: `${f.fn ?? '?'} at ${f.path}:${f.line}`, tool: 'sanitizer',
    weight: f.own ? 0.6 : 0.05, logLine: f.n };
  if (f.column) s.column = f.column;
  if (f.fn) s.symbol = f.fn;
  return s;
}

/**
 * One report from `ERROR: XSanitizer:` to its `SUMMARY:` line → a diagnostic at the first frame of
 * the program (not glibc's or the sanitizer's own interceptors), the report's lines as related, and
 * every frame. Returns the index after the report.
 */
function readReport(lines: readonly LogLine[], start: number, header: RegExpExecArray, out: Signal[]): number {
  const block: number[] = [lines[start]!.n];
  const frames: Frame[] = [];
  let i = start + 1;
  for (; i < lines.length && i - start < MAX_BLOCK * 4; i++) {
    const l = lines[i]!;
    if (HEADER.test(l.text)) break;
    if (l.text.length > MAX_LINE) continue;
    const f = frameOf(l);
    if (f && f !== 'module' && frames.length < MAX_FRAMES) frames.push(f);
    // The shadow-byte map and its legend come after SUMMARY: noise to a reader, so the block ends there.
    if (block.length < MAX_BLOCK && (f || l.text.trim() !== '')) block.push(l.n);
    if (SUMMARY.test(l.text)) {
      i++;
      break;
    }
  }
  const at = frames.find((f) => f.own);
  const main: Signal = { kind: 'diagnostic', message: `${header[1]}Sanitizer: ${header[2]}`, tool: 'sanitizer', severity: 'error',
    category: 'test', weight: 1, logLine: lines[start]!.n, related: block.slice(1) };
  if (at) {
    Object.assign(main, { path: at.path, line: at.line });
    if (at.fn) main.symbol = at.fn;
  }
  out.push(main);
  // The pinned frame stays a frame too: the diff blamer follows frames onto the PR's changed lines.
  for (const f of frames) out.push(frameSignal(f));
  return i;
}

/** Reads AddressSanitizer / LeakSanitizer / ThreadSanitizer / MemorySanitizer reports and UBSan `runtime error:` lines. */
export const sanitizerMatcher: Matcher = {
  id: 'sanitizer',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; ) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !text.includes('Sanitizer') && !text.includes('runtime error: ')) {
        i++;
        continue;
      }
      const h = HEADER.exec(text);
      if (h) {
        i = readReport(lines, i, h, out);
        continue;
      }
      const u = text.includes(': runtime error: ') ? UBSAN.exec(text) : null;
      if (u) {
        out.push({ kind: 'diagnostic', path: u[1]!, line: Number(u[2]), column: Number(u[3]), message: `runtime error: ${u[4]}`,
          tool: 'sanitizer', severity: 'error', category: 'test', weight: 1, logLine: n, related: [] });
      }
      i++;
    }
    return out;
  },
};
