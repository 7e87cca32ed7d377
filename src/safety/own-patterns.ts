/**
 * Redline's own secret shapes, beside secretlint's and gitleaks' rule sets: the ones a CI log shows that
 * those miss or that we want stricter (GitHub, AWS, Slack, Anthropic, npm, JWTs, Bearer/Basic headers,
 * URL credentials, `name=value` assignments), and PEM private keys of any length.
 */
import { PEM_MAX_CHARS } from '../limits.js';
import { looksRandom, type Span } from './span.js';

/**
 * One secret shape. `value` is the capture group holding the secret (the rest of the match, such as
 * `password=`, is kept); `body` is the part whose entropy decides whether it is real or a placeholder.
 * Every pattern is a fixed-width prefix + a bounded class run, preceded by a lookbehind so attempts only
 * start at a token boundary: no nested quantifiers, no backtracking that grows with the input.
 */
interface Rule {
  kind: string;
  re: RegExp;
  /** Index of the capture group replaced (0 = the whole match). */
  value: number;
  /** Extracts the random part of the secret for the entropy check; the whole value when absent. */
  body?: (value: string) => string;
  /** false: the shape alone is proof (no entropy floor). */
  entropy?: boolean;
}

const B = '(?<![A-Za-z0-9_])'; // token boundary without \b's word-char subtleties around '-'

export const OWN_RULES: Rule[] = [
  { kind: 'github-pat', re: new RegExp(`${B}github_pat_[A-Za-z0-9_]{82,255}`, 'g'), value: 0, body: (v) => v.slice(11) },
  { kind: 'github-token', re: new RegExp(`${B}gh[pousr]_[A-Za-z0-9]{36,255}`, 'g'), value: 0, body: (v) => v.slice(4) },
  { kind: 'aws-access-key', re: new RegExp(`${B}(?:AKIA|ASIA)[A-Z2-7]{16}(?![A-Za-z0-9])`, 'g'), value: 0, body: (v) => v.slice(4) },
  { kind: 'slack-token', re: new RegExp(`${B}xox[baprs]-[A-Za-z0-9-]{10,250}`, 'g'), value: 0, body: (v) => v.slice(5) },
  { kind: 'anthropic-key', re: new RegExp(`${B}sk-ant-(?:api|admin)\\d\\d-[A-Za-z0-9_-]{20,300}`, 'g'), value: 0, body: (v) => v.slice(v.indexOf('-', 7) + 1) },
  { kind: 'npm-token', re: new RegExp(`${B}npm_[A-Za-z0-9]{36,255}`, 'g'), value: 0, body: (v) => v.slice(4) },
  // header.payload.signature, both JSON parts start with `{"` = eyJ. The signature may be empty (alg none).
  { kind: 'jwt', re: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,8192}\\.eyJ[A-Za-z0-9_-]{8,65536}\\.[A-Za-z0-9_-]{0,8192}`, 'g'), value: 0, entropy: false },
  // `token xyz` is left to the token shapes: "Unexpected token someLongIdentifier" is a JS syntax error.
  { kind: 'bearer', re: /(?<![A-Za-z0-9_])(?:Bearer|Basic)[ \t]{1,8}([A-Za-z0-9._~+/=-]{20,2048})/g, value: 1 },
  // https://user:password@host: the password part only.
  { kind: 'url-credentials', re: /:\/\/[^\s/:@]{1,256}:([^\s/@]{3,256})@/g, value: 1, entropy: false },
  // api_key=…, "password": "…", NPM_TOKEN: …, client-secret = …: a named secret with a long value.
  // A bare `key` (as in "Cache key: node-cache-…") needs a qualifier right before it (api_key, SIGNING_KEY).
  {
    kind: 'generic',
    re: /(?:secret|token|passw(?:or)?d|pwd|credentials?|[a-z0-9][_-]?key)s?["']?[ \t]{0,8}[:=][ \t]{0,8}["']?([^\s"'`<>,;]{12,512})/gi,
    value: 1,
  },
];

/** Spans of OWN_RULES in `text`: the capture group (`password=` kept), placeholders (low entropy) skipped. */
export function findOwnPatterns(text: string): Span[] {
  const spans: Span[] = [];
  for (const rule of OWN_RULES) {
    rule.re.lastIndex = 0;
    for (const m of text.matchAll(rule.re)) {
      const value = m[rule.value];
      if (!value || value.startsWith('[REDACTED:')) continue;
      if (rule.entropy !== false && !looksRandom(rule.body ? rule.body(value) : value)) continue;
      const start = m.index + (rule.value === 0 ? 0 : m[0].lastIndexOf(value));
      spans.push({ start, end: start + value.length, kind: rule.kind });
    }
  }
  return spans;
}

/** PEM private-key blocks (header to footer, or the header and its base64 lines when cut off). */
export function findPem(text: string): Span[] {
  const spans: Span[] = [];
  const BEGIN = '-----BEGIN ';
  const header = /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
  let from = 0;
  for (let at = text.indexOf(BEGIN); at !== -1; at = text.indexOf(BEGIN, Math.max(at + 1, from))) {
    if (!header.test(text.slice(at, at + 80))) continue;
    let end = text.indexOf('-----END ', at);
    if (end !== -1 && end - at <= PEM_MAX_CHARS) {
      const close = text.indexOf('-----', end + 9);
      end = close === -1 ? text.length : close + 5;
    } else {
      // Unterminated (a cut log): take the header line and the base64 lines that follow it.
      const body = /\n[A-Za-z0-9+/=:,\- \t]{16,200}(?=\n|$)/y;
      end = text.indexOf('\n', at);
      if (end === -1) end = text.length;
      else {
        body.lastIndex = end;
        while (body.exec(text) && body.lastIndex - at <= PEM_MAX_CHARS) end = body.lastIndex;
      }
    }
    spans.push({ start: at, end, kind: 'private-key' });
    from = end;
  }
  return spans;
}
