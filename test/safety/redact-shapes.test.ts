import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REDACT_WINDOW_CHARS } from '../../src/limits.js';
import { redactSecrets } from '../../src/safety/redact.js';
import { GITLEAKS_NOT_COMPILED, GITLEAKS_RULE_COUNT, GITLEAKS_RULES } from '../../src/safety/gitleaks/rules.generated.js';
import { corpusSeed, makeRandom } from './secret-corpus.js';

/** Shapes that used to bypass redaction (issue 13), one by one. Tokens assembled at run time. */
const SEED = corpusSeed();
const r = makeRandom(SEED);
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const glpat = ['gl', 'pat-', r(20, AN)].join('');
const ghp = ['gh', 'p_', r(36, AN)].join('');

describe(`redaction shapes (seed ${SEED})`, () => {
  it('a token cut in two by a \\r progress frame is redacted in the raw text', () => {
    const out = redactSecrets(`upload 40%\r${ghp.slice(0, 18)}\r${ghp.slice(18)}\n`).text;
    expect(out).not.toContain(ghp.slice(4, 30));
    expect(out).toContain('[REDACTED:');
  });

  it('a "secretlint-disable" comment in the log switches nothing off', () => {
    const out = redactSecrets(`// secretlint-disable\nDOCKER=${['dckr', '_pat_', r(27, AN)].join('')}\n${glpat}\n`).text;
    expect(out).not.toContain(glpat);
    expect(out).not.toMatch(/dckr_pat_[A-Za-z0-9]/);
  });

  it('a token on a window boundary of a long line is found, and the line keeps its length budget', () => {
    for (const shift of [-30, -10, 0, 5]) {
      const pad = 'a '.repeat((REDACT_WINDOW_CHARS + shift) / 2);
      const line = `${pad}${glpat} ${pad}${ghp} end`;
      const out = redactSecrets(line).text;
      expect(out).not.toContain(glpat);
      expect(out).not.toContain(ghp);
      expect(out.endsWith(' end')).toBe(true);
    }
  });

  it('keeps the number of lines, and is idempotent', () => {
    const text = `a\nDB_PASSWORD=${r(24, AN)}\n-----BEGIN RSA PRIVATE KEY-----\n${r(64, AN)}\n${r(64, AN)}\n-----END RSA PRIVATE KEY-----\nz`;
    const once = redactSecrets(text).text;
    expect(once.split('\n')).toHaveLength(text.split('\n').length);
    expect(redactSecrets(once).text).toBe(once);
  });

  it('gitleaks rules: the committed module is what the build makes of the vendored TOML; every rule accounted for', () => {
    execFileSync(process.execPath, ['scripts/build-gitleaks-rules.mjs', '--check'], { stdio: 'pipe' });
    expect(GITLEAKS_RULES.length + GITLEAKS_NOT_COMPILED.length).toBe(GITLEAKS_RULE_COUNT);
    expect(GITLEAKS_RULES.length).toBeGreaterThan(200);
    for (const rule of GITLEAKS_RULES) expect(() => new RegExp(rule.source, 'dg')).not.toThrow();
  });
});
