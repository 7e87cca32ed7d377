/**
 * gitleaks' default rule set (vendored in gitleaks/, compiled to JS at build time) as a detector, with
 * gitleaks' own semantics: a rule runs only when one of its keywords is in the text (the cheap
 * prefilter), the secret is the rule's secretGroup or its first non-empty group, a secret at or below
 * the rule's entropy is dropped, and the rule's and the global allowlists (regexes on the secret, the
 * match or the line; stopwords in the secret) drop what they allow. Placeholders (`sk_live_XXXX…`) are
 * dropped too, with the same floor as our own patterns, so evidence stays readable.
 */
import { GITLEAKS_GLOBAL_ALLOW, GITLEAKS_RULES, type GitleaksAllow } from './gitleaks/rules.generated.js';
import { looksRandom, shannonEntropy, tokenBody, type Span } from './span.js';

interface Allow {
  target: string;
  regexes: RegExp[];
  stopwords: string[];
  all: boolean;
}

interface Compiled {
  id: string;
  re: RegExp;
  /** The split-off name prefix (rules.generated.ts: `lead`): a one-character test and how far it reaches. */
  lead?: { cls: RegExp; max: number };
  keywords: string[];
  entropy: number;
  secretGroup: number;
  allow: Allow[];
}

const compileAllow = (a: GitleaksAllow): Allow => ({ ...a, regexes: a.regexes.map((r) => new RegExp(r)) });

const GLOBAL: Allow[] = GITLEAKS_GLOBAL_ALLOW ? [compileAllow(GITLEAKS_GLOBAL_ALLOW)] : [];

/** Every compiled rule ('d': match indices, so the secret's own offset is known). */
export const COMPILED: Compiled[] = GITLEAKS_RULES.map((r) => ({
  id: r.id,
  re: new RegExp(r.source, 'dg'),
  ...(r.lead ? { lead: { cls: new RegExp(`^${r.lead.cls}$`), max: r.lead.max } } : {}),
  keywords: r.keywords,
  entropy: r.entropy ?? 0,
  secretGroup: r.secretGroup ?? 0,
  allow: (r.allow ?? []).map(compileAllow),
}));

const ALWAYS = COMPILED.filter((r) => r.keywords.length === 0);
const BY_KEYWORD = new Map<string, Compiled[]>();
for (const r of COMPILED) for (const k of r.keywords) BY_KEYWORD.set(k, [...(BY_KEYWORD.get(k) ?? []), r]);

// One alternation of all keywords, longest first: at a position where several start, the longest wins,
// and CONTAINED names the shorter ones inside it, so no keyword occurrence is missed.
const KEYWORDS = [...BY_KEYWORD.keys()].sort((a, b) => b.length - a.length);
const KEYWORD_RE = new RegExp(KEYWORDS.map((k) => k.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|'), 'g');
const CONTAINED = new Map<string, string[]>();
/**
 * The keywords inside `k` (itself included), worked out on its first occurrence and kept: all 244 up front
 * (244² `includes`) were ~6 ms of every run's start-up, for the few keywords a log holds.
 */
function containedIn(k: string): string[] {
  let inside = CONTAINED.get(k);
  if (!inside) CONTAINED.set(k, (inside = KEYWORDS.filter((o) => k.includes(o))));
  return inside;
}

/**
 * Where a rule's match may be, around one of its keywords: every rule's match holds its keyword, at most
 * this far from the match's start (the generic rules' `[\w.-]{0,50}?` name prefix) ...
 */
const BEFORE_KEYWORD = 128;
/** ... and the match runs at most this far past it (the curl rules' header, a long token). */
const AFTER_KEYWORD = 2_048;

/**
 * For each rule whose keywords occur in `text` (gitleaks' prefilter), the regions around those
 * occurrences, merged: the rule's regex runs there only, not from every position of the text. Rules
 * without keywords run on the whole text.
 */
function regionsFor(text: string): Map<Compiled, [number, number][]> {
  const found = new Map<Compiled, [number, number][]>();
  for (const r of ALWAYS) found.set(r, [[0, text.length]]);
  const lower = text.toLowerCase();
  KEYWORD_RE.lastIndex = 0;
  for (let m = KEYWORD_RE.exec(lower); m; m = KEYWORD_RE.exec(lower)) {
    const lo = Math.max(0, m.index - BEFORE_KEYWORD);
    const hi = Math.min(text.length, m.index + AFTER_KEYWORD);
    for (const k of containedIn(m[0]))
      for (const r of BY_KEYWORD.get(k) ?? []) {
        const list = found.get(r) ?? [];
        const last = list[list.length - 1];
        if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
        else list.push([lo, hi]);
        found.set(r, list);
      }
    KEYWORD_RE.lastIndex = m.index + 1;
  }
  return found;
}

function lineAround(text: string, start: number, end: number): string {
  const a = text.lastIndexOf('\n', start - 1) + 1;
  const b = text.indexOf('\n', end);
  return text.slice(a, b === -1 ? text.length : b);
}

function allowed(list: readonly Allow[], secret: string, match: string, line: () => string): boolean {
  for (const a of list) {
    const target = a.target === 'match' ? match : a.target === 'line' ? line() : secret;
    const checks: boolean[] = [];
    if (a.regexes.length) checks.push(a.regexes.some((r) => r.test(target)));
    if (a.stopwords.length) {
      const lower = secret.toLowerCase();
      checks.push(a.stopwords.some((w) => lower.includes(w)));
    }
    if (checks.length && (a.all ? checks.every(Boolean) : checks.some(Boolean))) return true;
  }
  return false;
}

/** Spans of gitleaks' rules in `text` (the secret itself, not its `key=` context). */
export function findGitleaks(text: string): Span[] {
  const spans: Span[] = [];
  for (const [rule, regions] of regionsFor(text)) {
    for (const [lo, hi] of regions) spans.push(...matchRule(rule, text, lo, hi));
  }
  return spans;
}

/** The rule's findings in text[lo, hi), a slice: `\b` and lookbehinds see the BEFORE_KEYWORD characters before a keyword. */
function matchRule(rule: Compiled, text: string, lo: number, hi: number): Span[] {
  const spans: Span[] = [];
  const region = lo === 0 && hi === text.length ? text : text.slice(lo, hi);
  rule.re.lastIndex = 0;
  for (const m of region.matchAll(rule.re)) {
      let g = rule.secretGroup;
      if (g === 0) for (let i = 1; i < m.length; i++) if (m[i]) { g = i; break; }
      const secret = m[g];
      const at = m.indices?.[g];
      if (!secret || !at) continue;
      if (rule.entropy && shannonEntropy(secret) <= rule.entropy) continue;
      if (!looksRandom(tokenBody(secret))) continue;
      let start = lo + m.index;
      if (rule.lead) for (let k = 0; k < rule.lead.max && start > 0 && rule.lead.cls.test(text[start - 1]!); k++) start--;
      const end = lo + m.index + m[0].length;
      const match = text.slice(start, end);
      const line = () => lineAround(text, start, end);
      if (allowed(rule.allow, secret, match, line) || allowed(GLOBAL, secret, match, line)) continue;
      spans.push({ start: lo + at[0], end: lo + at[1], kind: rule.id });
  }
  return spans;
}
