// Translates a Go RE2 pattern (gitleaks' rules) into a JavaScript RegExp source with the same meaning,
// mechanically: no rule is rewritten by hand. What differs between the two dialects:
// - inline flags: RE2 has `(?i)` anywhere, `(?i:…)`, `(?-i:…)`, `(?s:…)`; Node 20 has none of them, so
//   case-insensitive scopes are expanded (letters → `[aA]`, classes folded) and `.` in an s-scope is `[\s\S]`;
// - `.` is "anything but \n" in RE2 (JS also excludes \r, U+2028/9): written `[^\n]`;
// - `\s` is ASCII `[\t\n\f\r ]` in RE2 (JS adds Unicode spaces); `\z` / `\A` become lookarounds;
//   `(?P<name>` is `(?<name>`; POSIX classes `[:alnum:]` are spelled out;
// - cost: RE2 is linear, a backtracking engine is not. Every unbounded repeat (`*`, `+`, `{n,}`) is
//   bounded to MAX_REPEAT so one attempt costs at most a fixed amount whatever the line's length.
// Anything else (backreferences cannot occur in RE2; `\C`, `\Q…\E`, Unicode classes) throws, and the
// caller lists the rule as not compiled.

/** Longest run one repeat may take (a secret is far shorter; bounds the cost of one match attempt). */
export const MAX_REPEAT = 1024;
/**
 * The same for a repeat of `.` (the curl rules' `.*` between `curl` and its header): an attempt scans
 * that far from every keyword, so it is kept short; a header further than this from its `curl` is missed.
 */
export const MAX_DOT_REPEAT = 256;

const POSIX = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9', graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};
const SPACE = '\\t\\n\\f\\r ';

class Unsupported extends Error {}

const isLetter = (c) => /^[A-Za-z]$/.test(c);
const escClass = (c) => (/[\\\]\[^-]/.test(c) ? '\\' + c : c);
const escOutside = (c) => (/[\\^$.*+?()[\]{}|/]/.test(c) ? '\\' + c : c);

/** Case-folds one class item list (strings like 'a-z', 'x', '\\d') for an i-scope. */
function foldItems(items) {
  const out = [...items];
  for (const it of items) {
    const m = /^(.)-(.)$/.exec(it);
    if (m) {
      const [lo, hi] = [m[1].charCodeAt(0), m[2].charCodeAt(0)];
      // overlap with a-z → add the A-Z counterpart, and vice versa
      const add = (a, b, delta) => {
        const s = Math.max(lo, a), e = Math.min(hi, b);
        if (s <= e) out.push(`${String.fromCharCode(s + delta)}-${String.fromCharCode(e + delta)}`);
      };
      add(97, 122, -32);
      add(65, 90, 32);
    } else if (it.length === 1 && isLetter(it)) {
      out.push(it === it.toLowerCase() ? it.toUpperCase() : it.toLowerCase());
    }
  }
  return out;
}

/**
 * Returns `{ source, flags }` for `new RegExp`. Throws Unsupported (message says what) for syntax
 * it does not translate.
 */
export function re2ToJs(re) {
  let i = 0;
  let out = '';
  // flag state per open group: { i, s }
  const stack = [];
  let flags = { i: false, s: false };

  const readEscape = (inClass) => {
    // at re[i] === '\\'
    const c = re[i + 1];
    if (c === undefined) throw new Unsupported('trailing backslash');
    i += 2;
    switch (c) {
      case 'd': return { cls: '0-9', text: '\\d' };
      case 'D': return { neg: '0-9', text: '\\D', short: '\\D' };
      case 'w': return { cls: '0-9A-Za-z_', text: '\\w' };
      case 'W': return { neg: '0-9A-Za-z_', text: '\\W', short: '\\W' };
      case 's': return { cls: SPACE, text: `[${SPACE}]` };
      case 'S': return { neg: SPACE, text: `[^${SPACE}]`, short: '\\S' };
      case 'b': if (inClass) throw new Unsupported('\\b in class'); return { assert: '\\b' };
      case 'B': if (inClass) throw new Unsupported('\\B in class'); return { assert: '\\B' };
      case 'z': if (inClass) throw new Unsupported('\\z in class'); return { assert: '(?![\\s\\S])' };
      case 'A': if (inClass) throw new Unsupported('\\A in class'); return { assert: '(?<![\\s\\S])' };
      case 'n': return { ch: '\n', text: '\\n' };
      case 'r': return { ch: '\r', text: '\\r' };
      case 't': return { ch: '\t', text: '\\t' };
      case 'f': return { ch: '\f', text: '\\f' };
      case 'v': return { ch: '\v', text: '\\v' };
      case 'x': {
        if (re[i] === '{') throw new Unsupported('\\x{…}');
        const h = re.slice(i, i + 2);
        if (!/^[0-9A-Fa-f]{2}$/.test(h)) throw new Unsupported('bad \\x');
        i += 2;
        return { ch: String.fromCharCode(parseInt(h, 16)), text: '\\x' + h };
      }
      case 'p': case 'P': case 'C': case 'Q': case 'E':
        throw new Unsupported(`\\${c}`);
      default:
        if (/[0-9]/.test(c)) throw new Unsupported('backreference or octal');
        if (/[A-Za-z]/.test(c)) throw new Unsupported(`\\${c}`);
        return { ch: c, text: inClass ? escClass(c) : escOutside(c) };
    }
  };

  const readClass = () => {
    // at re[i] === '['
    i++;
    let neg = false;
    if (re[i] === '^') { neg = true; i++; }
    const items = [];
    let first = true;
    while (i < re.length && (re[i] !== ']' || first)) {
      first = false;
      let lo;
      if (re.startsWith('[:', i)) {
        const end = re.indexOf(':]', i + 2);
        const name = re.slice(i + 2, end);
        if (end === -1 || !POSIX[name]) throw new Unsupported(`POSIX class ${name}`);
        items.push(...POSIX[name].match(/\\x..-\\x..|\\x..|\\.|.-.|./g));
        i = end + 2;
        continue;
      }
      if (re[i] === '\\') {
        const e = readEscape(true);
        // \S \D \W inside a class: JS's own (its \S also excludes Unicode spaces; the set only grows).
        if (e.neg) { items.push(e.short); continue; }
        if (e.cls) { items.push(...e.cls.match(/\\.|.-.|./g)); continue; }
        lo = e.ch;
      } else {
        lo = re[i++];
      }
      if (re[i] === '-' && re[i + 1] !== ']' && i + 1 < re.length) {
        i++;
        let hi;
        if (re[i] === '\\') {
          const e = readEscape(true);
          if (e.ch === undefined) throw new Unsupported('range to a class');
          hi = e.ch;
        } else hi = re[i++];
        items.push(`${lo}-${hi}`);
      } else items.push(lo);
    }
    if (re[i] !== ']') throw new Unsupported('unterminated class');
    i++;
    const folded = flags.i ? foldItems(items) : items;
    const body = folded
      .map((it) => {
        if (/^\\/.test(it)) return it;
        const m = /^(.)-(.)$/s.exec(it);
        if (m) return `${escClass(m[1])}-${escClass(m[2])}`;
        return it === '\n' ? '\\n' : it === '\r' ? '\\r' : it === '\t' ? '\\t' : escClass(it);
      })
      .join('');
    return `[${neg ? '^' : ''}${body}]`;
  };

  const readQuant = (dot) => {
    const cap = dot ? MAX_DOT_REPEAT : MAX_REPEAT;
    // after an atom: *, +, ?, {n}, {n,}, {n,m}, each optionally lazy (?); possessive does not exist in RE2
    const c = re[i];
    let q = '';
    if (c === '*') { q = `{0,${cap}}`; i++; }
    else if (c === '+') { q = `{1,${cap}}`; i++; }
    else if (c === '?') { q = '?'; i++; }
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(re.slice(i));
      if (!m) return ''; // a literal '{' (RE2 allows it)
      i += m[0].length;
      const lo = Number(m[1]);
      if (m[2] === undefined) q = `{${lo}}`;
      else if (m[3] === '') q = `{${lo},${Math.max(lo, cap)}}`;
      else q = `{${lo},${m[3]}}`;
    } else return '';
    if (re[i] === '?') { q += '?'; i++; }
    if (re[i] === '+') throw new Unsupported('possessive quantifier');
    return q;
  };

  while (i < re.length) {
    const c = re[i];
    let atom = '';
    if (c === '(') {
      if (re.startsWith('(?', i)) {
        const m = /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(re.slice(i));
        const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(re.slice(i));
        if (named) {
          stack.push(flags);
          flags = { ...flags };
          out += `(?<${named[1]}>`;
          i += named[0].length;
          continue;
        }
        if (!m) throw new Unsupported(`group ${re.slice(i, i + 5)}`);
        const on = m[1] ?? '', off = m[2] ?? '';
        if (/[mU]/.test(on + off)) throw new Unsupported('flag m or U');
        const next = { i: on.includes('i') ? true : off.includes('i') ? false : flags.i, s: on.includes('s') ? true : off.includes('s') ? false : flags.s };
        i += m[0].length;
        if (m[3] === ')') { flags = next; continue; } // (?i): to the end of the enclosing group
        stack.push(flags);
        flags = next;
        out += '(?:';
        continue;
      }
      stack.push(flags);
      flags = { ...flags };
      out += '(';
      i++;
      continue;
    }
    if (c === ')') {
      if (stack.length === 0) throw new Unsupported('unbalanced )');
      flags = stack.pop();
      i++;
      atom = ')';
    } else if (c === '|') {
      i++;
      out += '|';
      continue;
    } else if (c === '^' || c === '$') {
      i++;
      out += c;
      continue;
    } else if (c === '[') atom = readClass();
    else if (c === '.') { i++; atom = flags.s ? '[\\s\\S]' : '[^\\n]'; }
    else if (c === '\\') {
      const e = readEscape(false);
      if (e.assert) { out += e.assert; continue; }
      if (e.ch !== undefined && flags.i && isLetter(e.ch)) atom = `[${e.ch.toLowerCase()}${e.ch.toUpperCase()}]`;
      else atom = e.text;
    } else if (c === '*' || c === '+' || c === '?') throw new Unsupported('quantifier without atom');
    else {
      i++;
      atom = flags.i && isLetter(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escOutside(c);
    }
    out += atom + readQuant(atom === '[^\\n]');
  }
  if (stack.length) throw new Unsupported('unbalanced (');
  const source = out;
  new RegExp(source, 'g'); // throws SyntaxError if the translation is not valid JS
  return { source, flags: 'g' };
}

export { Unsupported };
