import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { Diagnosis, Finding } from '../types.js';
import { PEM_MAX_CHARS } from '../limits.js';

/** The result of a redaction pass: the cleaned text and how many secrets were replaced. */
export interface Redacted {
  text: string;
  count: number;
}

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

const RULES: Rule[] = [
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

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Whether a candidate looks random enough to be a real secret. About 3 bits/char for long strings;
 * a short string cannot reach that even when random (16 distinct chars = 4 bits max), so the floor
 * scales with length. `ghp_xxxx…`, `AKIAXXXXXXXXXXXXXXXX`, `${{ secrets.X }}` stay readable.
 */
export function looksRandom(body: string): boolean {
  if (/^\$|^%|^\*+$/.test(body)) return false; // $VAR, %VAR%, Actions' *** mask
  const floor = Math.min(3, 0.7 * Math.log2(Math.max(body.length, 2)));
  return shannonEntropy(body) >= floor;
}

/** Replaces PEM private-key blocks, keeping the number of lines so line-aligned callers stay aligned. */
function redactPem(text: string): Redacted {
  const BEGIN = '-----BEGIN ';
  const header = /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
  let out = '';
  let count = 0;
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
    const block = text.slice(at, end);
    const newlines = block.split('\n').length - 1;
    out += text.slice(from, at) + '[REDACTED:private-key]' + '\n'.repeat(newlines);
    from = end;
    count++;
  }
  return { text: out + text.slice(from), count };
}

/**
 * Replaces secrets in `text` with `[REDACTED:<kind>]`. Works on whole texts (PEM blocks span lines)
 * and never changes the number of lines. Placeholders (low entropy) are kept as they are.
 */
export function redactSecrets(text: string): Redacted {
  return base64Forms(redactSecretsOnce(text));
}

function redactSecretsOnce(text: string): Redacted {
  const pem = text.includes('-----BEGIN ') ? redactPem(text) : { text, count: 0 };
  let out = pem.text;
  let count = pem.count;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (match: string, ...groups: unknown[]) => {
      const value = rule.value === 0 ? match : (groups[rule.value - 1] as string | undefined);
      if (!value || value.startsWith('[REDACTED:')) return match;
      if (rule.entropy !== false && !looksRandom(rule.body ? rule.body(value) : value)) return match;
      count++;
      const marker = `[REDACTED:${rule.kind}]`;
      if (rule.value === 0) return marker;
      // Keep what precedes the value (`password=`), replace the value itself.
      const at = match.lastIndexOf(value);
      return match.slice(0, at) + marker + match.slice(at + value.length);
    });
  }
  return { text: out, count };
}

const B64 = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{40,4096}={0,2}(?![A-Za-z0-9+/=])/g;

/** A secret written base64-encoded (`echo Z2hwX… | base64 -d`): decoded, checked with the patterns, replaced whole. */
function base64Forms(r: Redacted): Redacted {
  let count = r.count;
  const text = r.text.replace(B64, (m) => {
    const decoded = Buffer.from(m, 'base64').toString('latin1');
    if (!/^[\x20-\x7e\t\r\n]+$/.test(decoded)) return m; // binary: a hash or an image, not an encoded token
    const inner = redactSecretsOnce(decoded);
    if (inner.count === 0) return m;
    count++;
    return '[REDACTED:base64]';
  });
  return { text, count };
}

/** Redacts a list of lines as one text (so multi-line secrets are seen) and returns as many lines. */
export function redactLines(lines: readonly string[]): { lines: string[]; count: number } {
  if (lines.length === 0) return { lines: [], count: 0 };
  const r = redactSecrets(lines.join('\n'));
  const out = r.text.split('\n');
  if (out.length === lines.length) return { lines: out, count: r.count };
  // Cannot happen (every replacement keeps newlines), but never misalign: fall back to line by line.
  let count = 0;
  const each = lines.map((l) => {
    const x = redactSecrets(l);
    count += x.count;
    return x.text;
  });
  return { lines: each, count };
}

/**
 * Returns a copy of `d` with every string that came from the log or the repo redacted (lists of log
 * lines are redacted as one text, so a private key split over lines is still found).
 */
export function redactDiagnosis(d: Diagnosis): { diagnosis: Diagnosis; count: number } {
  let count = 0;
  const one = (s: string): string => {
    const r = redactSecrets(s);
    count += r.count;
    return r.text;
  };
  const many = (xs: readonly string[]): string[] => {
    const r = redactLines(xs);
    count += r.count;
    return r.lines;
  };
  const findings: Finding[] = d.findings.map((f) => {
    const texts = many(f.evidence.map((e) => e.text));
    return {
      ...f,
      file: one(f.file),
      message: one(f.message),
      ...(f.symbol !== undefined ? { symbol: one(f.symbol) } : {}),
      evidence: f.evidence.map((e, i) => ({ ...e, text: texts[i] ?? '' })),
    };
  });
  const evTexts = many(d.evidence.map((e) => e.text));
  const diagnosis: Diagnosis = {
    ...d,
    findings,
    evidence: d.evidence.map((e, i) => ({ ...e, text: evTexts[i] ?? '' })),
    failingStep: d.failingStep ? { ...d.failingStep, name: one(d.failingStep.name) } : null,
    summary: one(d.summary),
  };
  return { diagnosis, count };
}

/**
 * secretlint's profiler (a module singleton that @secretlint/core marks through, ~56 performance marks
 * per lintSource call) keeps every mark for the life of the process, scans all of them on each new one
 * and leaves them in Node's performance timeline: quadratic CPU and unbounded memory in the App and the
 * workers, which redact every write (`npm run bench:load` found it: 66% of the App's CPU after 100
 * diagnoses, each 500 redactions slower than the last). Redline never reads the profile, so marking is
 * off. Upstream: secretlint/secretlint#1633, fixed by #1673 (`setEnabled`). @secretlint/profiler must be
 * the version @secretlint/core pins (one instance); test/report/redact-profiler.test.ts checks that.
 */
const profiler = secretLintProfiler as unknown as { setEnabled?: (enabled: boolean) => void; mark: (marker: unknown) => void };
if (typeof profiler.setEnabled === 'function') profiler.setEnabled(false);
else profiler.mark = () => {};

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/**
 * redactSecrets plus secretlint's recommended preset (a maintained detector: AWS, GCP, Azure, GitHub,
 * Slack, SendGrid, OpenAI, Anthropic, npm, basic-auth, database URLs, private keys...). Async because
 * secretlint is; used for everything that leaves the process (redact-outgoing.ts: GitHub writes, the
 * Action's stdout and summary, artifacts, model requests). Secretlint runs first, on
 * the original text, then our patterns (JWTs, generic assignments) on the result; newlines are kept.
 */
export async function redactSecretsDeep(text: string): Promise<Redacted> {
  let out = text;
  let count = 0;
  try {
    const r = await lintSource({
      source: { content: text, filePath: 'redline-input.txt', ext: '.txt', contentType: 'text' },
      options: { config: SECRETLINT_CONFIG as never, noPhysicFilePath: true },
    });
    // Replace from the end so earlier ranges stay valid; overlapping reports merge into one.
    // A placeholder (`ghp_xxxx…`, `AKIAXXXX…`) matches secretlint's shapes too: low entropy is kept.
    const ranges = r.messages
      .map((m) => ({ start: m.range[0], end: m.range[1], rule: m.ruleId }))
      .filter((g) => looksRandom(text.slice(g.start, g.end).replace(/^[A-Za-z]{2,4}[_-]/, '')))
      .sort((a, b) => b.start - a.start);
    let floor = Infinity;
    for (const g of ranges) {
      const end = Math.min(g.end, floor);
      if (end <= g.start) continue;
      const kind = g.rule.replace(/^@secretlint\/secretlint-rule-/, '');
      out = out.slice(0, g.start) + `[REDACTED:${kind}]` + '\n'.repeat(out.slice(g.start, end).split('\n').length - 1) + out.slice(end);
      floor = g.start;
      count++;
    }
  } catch {
    // A detector failure must not stop redaction: the patterns below still run.
  }
  const rest = redactSecrets(out);
  return { text: rest.text, count: count + rest.count };
}
