import { describe, expect, it } from 'vitest';
import { redactDiagnosis, redactLines, redactSecrets, shannonEntropy } from '../../src/safety/redact.js';
import { ALNUM, located, randomText } from '../report/make.js';

// Real-shaped fakes assembled from parts at run time: no secret-shaped literal in the repo.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64URL = ALNUM + '-_';
const fakes = {
  'github-token': 'gh' + 'p_' + randomText(36, ALNUM, 11),
  'github-token-s': 'gh' + 's_' + randomText(36, ALNUM, 12),
  'github-pat': 'github' + '_pat_' + randomText(22, ALNUM, 13) + '_' + randomText(59, ALNUM, 14),
  'aws-access-key': 'AK' + 'IA' + randomText(16, B32, 15),
  'slack-token': 'xo' + 'xb-' + randomText(12, '0123456789', 16) + '-' + randomText(13, '0123456789', 17) + '-' + randomText(24, ALNUM, 18),
  'anthropic-key': 'sk-' + 'ant-api03-' + randomText(93, B64URL, 19) + 'AA',
  'npm-token': 'np' + 'm_' + randomText(36, ALNUM, 20),
  jwt:
    'ey' + 'J' + randomText(30, B64URL, 21) + '.ey' + 'J' + randomText(60, B64URL, 22) + '.' + randomText(43, B64URL, 23),
};

describe('redactSecrets', () => {
  for (const [name, secret] of Object.entries(fakes)) {
    it(`redacts a ${name}`, () => {
      const r = redactSecrets(`before ${secret} after`);
      expect(r.text).not.toContain(secret);
      expect(r.text).toMatch(/^before \[REDACTED:[a-z-]+\] after$/);
      expect(r.count).toBe(1);
    });
  }

  it('names the kind', () => {
    expect(redactSecrets(fakes['github-token']).text).toBe('[REDACTED:github-token]');
    expect(redactSecrets(fakes['aws-access-key']).text).toBe('[REDACTED:aws-access-key]');
    expect(redactSecrets(fakes.jwt).text).toBe('[REDACTED:jwt]');
  });

  it('keeps low-entropy placeholders', () => {
    const placeholders = [
      'gh' + 'p_' + 'x'.repeat(36),
      'AK' + 'IA' + 'X'.repeat(16),
      'np' + 'm_' + '0'.repeat(36),
      'api_key=' + 'xxxxxxxxxxxxxxxxxxxx',
      'password: ' + '${{ secrets.DB_PASSWORD }}',
      'NPM_TOKEN=' + '$NPM_TOKEN_FROM_THE_ENV',
    ];
    for (const p of placeholders) expect(redactSecrets(p)).toEqual({ text: p, count: 0 });
  });

  it('redacts generic key/secret/token/password assignments with long values, keeping the name', () => {
    const v = randomText(32, ALNUM, 30);
    expect(redactSecrets(`AWS_SECRET_ACCESS_KEY=${v}`).text).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:generic]');
    expect(redactSecrets(`"client_secret": "${v}"`).text).toBe('"client_secret": "[REDACTED:generic]"');
    expect(redactSecrets(`password = ${v}`).text).toBe('password = [REDACTED:generic]');
  });

  it('leaves ordinary log text alone', () => {
    const lines = [
      "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      'Cache restored from key: node-cache-Linux-x64-npm-' + randomText(64, '0123456789abcdef', 31),
      "SyntaxError: Unexpected token someVeryLongIdentifierNameHere",
      'Run actions/checkout@v4',
    ];
    for (const l of lines) expect(redactSecrets(l).count).toBe(0);
  });

  it('redacts credentials in URLs and bearer headers', () => {
    const pw = randomText(20, ALNUM, 40);
    expect(redactSecrets(`git clone https://bot:${pw}@example.com/r.git`).text).toBe(
      'git clone https://bot:[REDACTED:url-credentials]@example.com/r.git',
    );
    const tok = randomText(40, ALNUM, 41);
    expect(redactSecrets(`Authorization: Bearer ${tok}`).text).toBe('Authorization: Bearer [REDACTED:bearer]');
  });

  it('redacts a PEM private key block across lines and keeps the line count', () => {
    const body = Array.from({ length: 5 }, (_, i) => randomText(64, ALNUM + '+/', 50 + i));
    const kind = 'RSA PRIV' + 'ATE KEY';
    const text = ['setup', `-----BEGIN ${kind}-----`, ...body, `-----END ${kind}-----`, 'done'].join('\n');
    const r = redactSecrets(text);
    expect(r.count).toBe(1);
    expect(r.text.split('\n')).toHaveLength(text.split('\n').length);
    for (const b of body) expect(r.text).not.toContain(b);
    expect(r.text.split('\n')[1]).toBe('[REDACTED:private-key]');
    expect(r.text.split('\n').at(-1)).toBe('done');
  });

  it('redacts an unterminated PEM block (a cut log) up to the end of the base64', () => {
    const body = Array.from({ length: 3 }, (_, i) => randomText(64, ALNUM, 60 + i));
    const text = [`-----BEGIN ${'PRIV' + 'ATE KEY'}-----`, ...body, 'npm ERR! something else'].join('\n');
    const r = redactSecrets(text);
    for (const b of body) expect(r.text).not.toContain(b);
    expect(r.text.endsWith('npm ERR! something else')).toBe(true);
  });

  it('redacts a PEM block written on one line with escaped newlines', () => {
    const body = randomText(64, ALNUM, 70);
    const kind = 'EC PRIV' + 'ATE KEY';
    const r = redactSecrets(`{"key":"-----BEGIN ${kind}-----\\n${body}\\n-----END ${kind}-----\\n"}`);
    expect(r.text).toBe('{"key":"[REDACTED:private-key]\\n"}');
  });

  it('runs in linear time on adversarial input', () => {
    const evil = [
      'eyJ'.repeat(100_000),
      'ghp_'.repeat(50_000),
      'a'.repeat(200_000) + '@',
      'token' + ' '.repeat(100_000),
      '-----BEGIN '.repeat(20_000),
      'x_key'.repeat(40_000),
    ];
    const t0 = performance.now();
    for (const e of evil) redactSecrets(e);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('redactLines / redactDiagnosis', () => {
  it('finds a key split over evidence lines and keeps them aligned', () => {
    const kind = 'OPENSSH PRIV' + 'ATE KEY';
    const lines = ['a', `-----BEGIN ${kind}-----`, randomText(70, ALNUM, 80), `-----END ${kind}-----`, 'b'];
    const r = redactLines(lines);
    expect(r.lines).toEqual(['a', '[REDACTED:private-key]', '', '', 'b']);
  });

  it('redacts every string of a Diagnosis without touching the input', () => {
    const t = fakes['npm-token'];
    const d = located({ summary: `leaked ${t}`, evidence: [{ line: 1, text: t }] }, { symbol: t });
    const { diagnosis, count } = redactDiagnosis(d);
    expect(count).toBe(3);
    expect(JSON.stringify(diagnosis)).not.toContain(t);
    expect(d.summary).toContain(t);
  });

  it('computes Shannon entropy', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('base64 runs without digits', () => {
  // Found by the secret corpus (REDLINE_CORPUS_SEED=3823455312): this Databricks token's base64 has no
  // digit, and a filter meant for plain words let it through in every output.
  const token = ['da', 'pi', '201dde6d7800709de8a395dbcdc436e2'].join('');
  const encoded = Buffer.from(token).toString('base64');

  it('decodes a mixed-case run of letters only, and redacts the secret inside', () => {
    expect(encoded).toMatch(/^[A-Za-z]+$/);
    const { text, count } = redactSecrets(`decoded config: ${encoded}`);
    expect(count).toBe(1);
    expect(text).not.toContain(encoded);
    expect(text).toContain('decoded config: ');
  });

  it('still leaves one-case words alone', () => {
    const words = 'SOME_VERY_LONG_CONSTANT_NAME some-very-long-package-name-here';
    expect(redactSecrets(words).text).toBe(words);
  });
});
