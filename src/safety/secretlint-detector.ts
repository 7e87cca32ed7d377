/**
 * secretlint's recommended preset as a synchronous detector. The preset already holds the secretlint
 * rules outside its core that fit a log (openai, anthropic, database-connection-string, 1password,
 * hashicorp-vault, docker, gitlab, shopify, groq, figma...: SECRETLINT_RULE_IDS); the `pattern` rule is
 * for a user's own regexes, which gitleaks' set and own-patterns.ts already are.
 *
 * The rules are driven through secretlint's rule interface (`create(context, options)` → `file(source)`,
 * reporting `{ message, range }`), not through @secretlint/core's lintSource, for three reasons:
 * - one synchronous redactor serves every writer, sync reporters included (lintSource is async);
 * - `secretlint-rule-filter-comments` is left out: through lintSource, a log line saying
 *   `secretlint-disable` switched detection off for the rest of the text, a bypass any fork PR can print;
 * - lintSource's profiler marked ~56 performance entries per call and kept them (secretlint#1633).
 */
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { looksRandom, tokenBody, type Span } from './span.js';

interface Handlers {
  file?: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => unknown;
}
interface SecretlintRule {
  meta: { id: string; supportedContentTypes?: string[] };
  create: (context: unknown, options: Record<string, unknown>) => Handlers | void;
}

const LEFT_OUT = new Set(['@secretlint/secretlint-rule-filter-comments']);
const RULES = ((recommended as unknown as { rules: SecretlintRule[] }).rules ?? []).filter(
  (r) => !LEFT_OUT.has(r.meta.id) && (r.meta.supportedContentTypes ?? ['text']).includes('text'),
);

/** The ids of the preset's rules that run (for the README and the tests). */
export const SECRETLINT_RULE_IDS: string[] = RULES.map((r) => r.meta.id);

let reports: { range: readonly [number, number]; ruleId: string }[] = [];
let current = '';
const context = {
  report: (d: { range: readonly [number, number] }) => reports.push({ range: d.range, ruleId: current }),
  ignore: () => {},
  createTranslator: () => (key: string) => key,
  sharedOptions: {},
};
const HANDLERS = RULES.map((r) => {
  current = r.meta.id;
  return { id: r.meta.id, handlers: r.create(context, {}) ?? {} };
});

/** secretlint's findings in `text`; placeholders (low entropy) dropped. A rule that throws leaves the others. */
export function findSecretlint(text: string): Span[] {
  reports = [];
  const source = { content: text, filePath: 'redline-input.txt', ext: '.txt', contentType: 'text' as const };
  for (const h of HANDLERS) {
    current = h.id;
    try {
      const r = h.handlers.file?.(source);
      if (r instanceof Promise) r.catch(() => {}); // no text rule is async; never leave a rejection unhandled
    } catch {
      // one rule failing must not stop the rest
    }
  }
  const found = reports;
  reports = [];
  return found
    .map((m) => ({ start: m.range[0], end: m.range[1], kind: m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '') }))
    .filter((s) => s.end > s.start && looksRandom(tokenBody(text.slice(s.start, s.end))));
}
