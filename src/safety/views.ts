/**
 * Other ways to read the same text, so a secret's shape cannot be hidden by how it was printed: a view
 * is a text plus, for each of its characters, the offset in the original it came from. A span found in
 * a view maps back to the original characters it covers (escape codes between them included).
 */
import { REDACT_MAX_ENCODED_CHARS } from '../limits.js';

export interface View {
  text: string;
  /** map[i]: offset in the original of view character i; map[text.length]: the original's end. */
  map: Int32Array;
}

// CSI (colours, cursor moves), OSC (titles, links; ended by BEL or ST), and two-character escapes.
const ESCAPE = /\x1b\[[0-?]{0,64}[ -/]{0,16}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|\x1b[@-_]/y;

/**
 * The text as a terminal's reader would join it: ANSI escape sequences and `\r` removed, so
 * `ghp_AB\x1b[0mCD…` and a token drawn over several `\r` progress frames read as one token. Null when
 * there is nothing to remove.
 */
export function cleanView(text: string): View | null {
  if (!text.includes('\x1b') && !text.includes('\r')) return null;
  const map = new Int32Array(text.length + 1);
  let out = '';
  let n = 0;
  let runStart = 0;
  const flush = (to: number) => {
    out += text.slice(runStart, to);
    for (let k = runStart; k < to; k++) map[n++] = k;
  };
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      flush(i);
      runStart = ++i;
      continue;
    }
    if (c === 27) {
      ESCAPE.lastIndex = i;
      const m = ESCAPE.exec(text);
      const len = m ? m[0].length : 1;
      flush(i);
      i += len;
      runStart = i;
      continue;
    }
    i++;
  }
  flush(text.length);
  map[n] = text.length;
  return { text: out, map: map.subarray(0, n + 1) };
}

const HEX = /^[0-9A-Fa-f]{2}$/;
const JSON_ESC: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };

/**
 * The text with percent-escapes (`%2F`) and JSON/JS string escapes (`\"`, `\/`, `\u0067`, `\n`)
 * decoded: a token inside a JSON string or a URL query reads as it was before it was escaped. Null when
 * the text has neither.
 */
export function decodedView(text: string): View | null {
  if (!/%[0-9A-Fa-f]{2}|\\[nrtbf"\\/u]/.test(text)) return null;
  const map = new Int32Array(text.length + 1);
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '%' && HEX.test(text.slice(i + 1, i + 3))) {
      parts.push(String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16)));
      map[n++] = i;
      i += 3;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      const e = text[i + 1]!;
      if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) {
        parts.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)));
        map[n++] = i;
        i += 6;
        continue;
      }
      const d = JSON_ESC[e];
      if (d !== undefined) {
        parts.push(d);
        map[n++] = i;
        i += 2;
        continue;
      }
    }
    parts.push(c);
    map[n++] = i++;
  }
  map[n] = text.length;
  return { text: parts.join(''), map: map.subarray(0, n + 1) };
}

// The base64 alphabets (standard `+/`, URL `-_`), and `=` padding, as a lookup table: the scan below
// is one pass over the characters (a regex without a literal start tried every position: 30x slower).
const B64_CLASS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_') B64_CLASS[c.charCodeAt(0)] = 1;
/** Shorter runs cannot hold a token worth decoding. */
const B64_MIN = 20;

/**
 * Base64 runs of `text` that decode to printable text (a hash or an image decodes to binary): each with
 * its decoded text, for the detectors to read.
 */
export function* base64Runs(text: string): Generator<{ start: number; end: number; decoded: string }> {
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c >= 128 || B64_CLASS[c] !== 1) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && text.charCodeAt(i) < 128 && B64_CLASS[text.charCodeAt(i)] === 1) i++;
    let end = i;
    while (end < n && end - i < 2 && text.charCodeAt(end) === 61) end++; // '=' padding
    const len = end - start;
    if (len < B64_MIN || len > REDACT_MAX_ENCODED_CHARS || (start > 0 && text.charCodeAt(start - 1) === 61) || text.charCodeAt(end) === 61) {
      i = end;
      continue;
    }
    i = end;
    const run = text.slice(start, end);
    // A pure hex run (a git SHA, a digest), a one-case word (`CONSTANT_NAME`, `some-package-name`), or
    // both alphabets at once (`/home/runner/my-repo`: base64 uses `+/`, base64url `-_`, never a mix) is not
    // base64 of anything. A mixed-case run without digits may well be: base64 of ASCII text often has none
    // (`dapi…` encodes to letters only), so such runs are decoded and left to the printable test below.
    if (/^[0-9a-f]+$/i.test(run) || /^[a-z_-]+$/.test(run) || /^[A-Z_-]+$/.test(run) || (/[+/]/.test(run) && /[-_]/.test(run))) continue;
    const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
    if (decoded.length < 12 || !/^[\x20-\x7e\t\r\n]+$/.test(decoded)) continue;
    yield { start, end, decoded };
  }
}

/**
 * The lines of `text` that `test` accepts, joined by `\n`, as a view: the other views (ANSI, escapes) are
 * built from the lines that need them only, so a log with a few coloured lines pays for those lines.
 * Null when no line is accepted.
 */
export function linesView(text: string, test: RegExp): View | null {
  const starts: number[] = [];
  const ends: number[] = [];
  let total = 0;
  for (let a = 0; a <= text.length; ) {
    let b = text.indexOf('\n', a);
    if (b === -1) b = text.length;
    test.lastIndex = 0;
    if (b > a && test.test(text.slice(a, b))) {
      starts.push(a);
      ends.push(b);
      total += b - a + 1;
    }
    a = b + 1;
  }
  if (starts.length === 0) return null;
  const map = new Int32Array(total + 1);
  const parts: string[] = [];
  let n = 0;
  for (let k = 0; k < starts.length; k++) {
    const a = starts[k]!;
    const b = ends[k]!;
    parts.push(text.slice(a, b));
    for (let i = a; i <= b; i++) map[n++] = i; // the line and its newline
  }
  map[n - 1] = Math.min(map[n - 1]!, text.length);
  map[n] = text.length;
  return { text: parts.join('\n') + '\n', map: map.subarray(0, n + 1) };
}

/** `inner` (a view of `outer.text`) as a view of what `outer` maps to. */
export function compose(outer: View, inner: View): View {
  return { text: inner.text, map: inner.map.map((k) => outer.map[Math.min(k, outer.map.length - 1)]!) };
}
