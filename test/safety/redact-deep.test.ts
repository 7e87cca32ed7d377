import { describe, expect, it } from 'vitest';
import { redactSecretsDeep } from '../../src/safety/redact.js';
import { ALNUM, randomText } from '../report/make.js';

// Real-shaped fakes assembled from parts at run time: no secret-shaped literal in the repo.
describe('redactSecretsDeep (secretlint recommended preset + our patterns)', () => {
  it('redacts what secretlint finds and what our patterns find, keeping the line count', async () => {
    const sendgrid = 'SG' + '.' + randomText(22, ALNUM, 3) + '.' + randomText(43, ALNUM, 4);
    const pg = 'postgres://app:' + randomText(16, ALNUM, 5) + '@db.internal:5432/app';
    const jwt = 'ey' + 'J' + randomText(30, ALNUM, 6) + '.ey' + 'J' + randomText(60, ALNUM, 7) + '.' + randomText(43, ALNUM, 8);
    const text = ['start', `SENDGRID=${sendgrid}`, `DATABASE_URL=${pg}`, `auth ${jwt}`, 'end'].join('\n');
    const r = await redactSecretsDeep(text);
    expect(r.text).not.toContain(sendgrid);
    expect(r.text).not.toContain(pg.slice(15, 31));
    expect(r.text).not.toContain(jwt);
    expect(r.text.split('\n')).toHaveLength(5);
    expect(r.text.startsWith('start\n')).toBe(true);
    expect(r.text).toMatch(/\[REDACTED:sendgrid/);
    expect(r.count).toBeGreaterThanOrEqual(3);
  });

  it('leaves ordinary text alone', async () => {
    const t = "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.";
    expect(await redactSecretsDeep(t)).toEqual({ text: t, count: 0 });
  });
});
