/**
 * secretlint's recommended preset as a detector (async, as secretlint is). The preset already holds the
 * rules outside its core that fit a log: openai, anthropic, database-connection-string, 1password,
 * hashicorp-vault, docker, gitlab, shopify... (`SECRETLINT_RULE_IDS` lists them); the `pattern` rule is
 * for a user's own regexes, which gitleaks' set and own-patterns.ts already are.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { looksRandom, tokenBody, type Span } from './span.js';

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

/** The ids of the preset's rules (for the README and the tests). */
export const SECRETLINT_RULE_IDS: string[] = ((recommended as unknown as { rules?: { meta: { id: string } }[] }).rules ?? []).map((r) => r.meta.id);

/** secretlint's findings in `text`; placeholders (low entropy) dropped. Never throws: a detector failure leaves the others. */
export async function findSecretlint(text: string): Promise<Span[]> {
  try {
    const r = await lintSource({
      source: { content: text, filePath: 'redline-input.txt', ext: '.txt', contentType: 'text' },
      options: { config: SECRETLINT_CONFIG as never, noPhysicFilePath: true },
    });
    return r.messages
      .map((m) => ({ start: m.range[0], end: m.range[1], kind: m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '') }))
      .filter((s) => looksRandom(tokenBody(text.slice(s.start, s.end))));
  } catch {
    return [];
  }
}
