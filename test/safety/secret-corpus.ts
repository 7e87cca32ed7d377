/**
 * Real-shaped fake credentials, generated per run (a fresh seed each run, printed on failure): one
 * generator per provider, in the format the provider documents (the shapes gitleaks' rules describe;
 * the rule id is named where one exists). `text` is how a tool prints it (with its variable name when
 * the token has no prefix of its own); `secret` is what must not reach any output. Assembled from parts
 * at run time, so no secret-shaped literal sits in the repository.
 */
import { randomBytes } from 'node:crypto';

export interface FakeSecret {
  provider: string;
  secret: string;
  text: string;
  /** Spans lines (a PEM key): not placed on the one long line. */
  multiline?: boolean;
}

const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LO = 'abcdefghijklmnopqrstuvwxyz';
const DIG = '0123456789';
const AN = UP + LO + DIG;
const HEX = '0123456789abcdef';
const W = AN + '_';
const WD = AN + '_-';
const B64 = AN + '+/';

/** A seeded generator (xorshift32), so a failing run can be replayed with REDLINE_CORPUS_SEED. */
export function makeRandom(seed: number): (n: number, alphabet: string) => string {
  let x = seed >>> 0 || 1;
  return (n, alphabet) => {
    let s = '';
    for (let i = 0; i < n; i++) {
      x ^= x << 13; x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5; x >>>= 0;
      s += alphabet[x % alphabet.length];
    }
    return s;
  };
}

export const corpusSeed = (): number => Number(process.env.REDLINE_CORPUS_SEED) || randomBytes(4).readUInt32LE(0);

const p = (...parts: string[]) => parts.join('');

/** The corpus for one seed: at least 60 providers. */
export function secretCorpus(seed: number): FakeSecret[] {
  const r = makeRandom(seed);
  const tok = (provider: string, secret: string): FakeSecret => ({ provider, secret, text: secret });
  const named = (provider: string, name: string, secret: string): FakeSecret => ({ provider, secret, text: `${name}=${secret}` });
  const uuid = () => `${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-a${r(3, HEX)}-${r(12, HEX)}`;
  const jwt = p('ey', 'J', r(20, WD), '.ey', 'J', r(60, WD), '.', r(43, WD));
  const pemBody = Array.from({ length: 12 }, () => r(64, B64)).join('\n');
  return [
    tok('github-pat (classic)', p('gh', 'p_', r(36, AN))),
    tok('github-oauth', p('gh', 'o_', r(36, AN))),
    tok('github-app user token', p('gh', 'u_', r(36, AN))),
    tok('github-app installation token', p('gh', 's_', r(36, AN))),
    tok('github-refresh-token', p('gh', 'r_', r(36, AN))),
    tok('github-fine-grained-pat', p('github', '_pat_', r(22, AN), '_', r(59, AN))),
    tok('gitlab-pat', p('gl', 'pat-', r(20, WD))),
    tok('gitlab-ptt', p('gl', 'ptt-', r(40, HEX))),
    tok('gitlab-runner-token', p('gl', 'rt-', r(20, WD))),
    tok('aws-access-token', p('AK', 'IA', r(16, UP + '234567'))),
    named('aws secret access key', 'AWS_SECRET_ACCESS_KEY', r(40, B64)),
    tok('slack-bot-token', p('xo', 'xb-', r(11, DIG), '-', r(12, DIG), '-', r(24, AN))),
    tok('slack-user-token', p('xo', 'xp-', r(11, DIG), '-', r(12, DIG), '-', r(12, DIG), '-', r(32, HEX))),
    tok('slack-webhook-url', p('https://hooks.', 'slack.com/services/T', r(10, UP + DIG), '/B', r(10, UP + DIG), '/', r(24, AN))),
    tok('stripe live secret key', p('sk', '_live_', r(99, AN))),
    tok('stripe restricted key', p('rk', '_live_', r(99, AN))),
    tok('stripe test secret key', p('sk', '_test_', r(99, AN))),
    tok('gcp-api-key', p('AI', 'za', r(35, WD))),
    tok('openai project key', p('sk', '-proj-', r(74, WD), 'T3Blbk', 'FJ', r(74, WD))),
    tok('openai legacy key', p('sk', '-', r(20, AN), 'T3Blbk', 'FJ', r(20, AN))),
    tok('anthropic-api-key', p('sk', '-ant-api03-', r(93, WD), 'AA')),
    tok('anthropic-admin-api-key', p('sk', '-ant-admin01-', r(93, WD), 'AA')),
    tok('sendgrid-api-token', p('S', 'G.', r(22, WD), '.', r(43, WD))),
    tok('twilio-api-key', p('S', 'K', r(32, HEX))),
    named('mailgun-private-api-token', 'MAILGUN_API_KEY', p('key', '-', r(32, HEX))),
    tok('digitalocean-pat', p('do', 'p_v1_', r(64, HEX))),
    tok('digitalocean-access-token', p('do', 'o_v1_', r(64, HEX))),
    tok('shopify-access-token', p('sh', 'pat_', r(32, HEX))),
    tok('shopify-shared-secret', p('sh', 'pss_', r(32, HEX))),
    tok('pypi-upload-token', p('pypi', '-AgEIcHlwaS5vcmc', r(60, WD))),
    tok('docker hub pat', p('dckr', '_pat_', r(27, WD))),
    tok('vault-service-token', p('hv', 's.', r(95, WD))),
    tok('vault-batch-token', p('hv', 'b.', r(150, WD))),
    named('discord bot token', 'DISCORD_BOT_TOKEN', p('M', r(23, AN), '.', r(6, WD), '.', r(27, WD))),
    named('telegram-bot-api-token', 'TELEGRAM_BOT_TOKEN', p(r(9, '123456789'), ':AA', r(33, WD))),
    tok('npm-access-token', p('np', 'm_', r(36, AN))),
    tok('jwt', jwt),
    tok('azure-ad-client-secret', p(r(3, AN), '8Q~', r(34, AN))),
    named('azure storage account key', 'DefaultEndpointsProtocol=https;AccountName=ci;AccountKey', p(r(86, B64), '==')),
    named('heroku-api-key', 'HEROKU_API_KEY', uuid()),
    tok('atlassian-api-token', p('ATATT', '3', r(186, WD))),
    tok('databricks-api-token', p('da', 'pi', r(32, HEX))),
    tok('doppler-api-token', p('dp', '.pt.', r(43, AN))),
    tok('dynatrace-api-token', p('dt0', 'c01.', r(24, UP + DIG), '.', r(64, UP + DIG))),
    tok('easypost-api-token', p('EZ', 'AK', r(54, LO + DIG))),
    tok('flutterwave-secret-key', p('FLWSECK', '_TEST-', r(32, HEX), '-X')),
    tok('frameio-api-token', p('fio', '-u-', r(64, WD))),
    tok('grafana-cloud-api-token', p('gl', 'c_', r(60, AN))),
    tok('grafana-service-account-token', p('gl', 'sa_', r(32, AN), '_', r(8, HEX))),
    tok('hashicorp-tf-api-token', p(r(14, AN), '.atlas', 'v1.', r(67, LO + DIG))),
    tok('huggingface-access-token', p('h', 'f_', r(34, UP + LO))),
    tok('linear-api-key', p('lin', '_api_', r(40, AN))),
    named('new-relic-user-api-key', 'NEW_RELIC_API_KEY', p('NR', 'AK-', r(27, UP + DIG))),
    tok('notion-api-token', p('nt', 'n_', r(11, DIG), r(35, AN))),
    tok('postman-api-token', p('PM', 'AK-', r(24, HEX), '-', r(34, HEX))),
    tok('pulumi-api-token', p('pu', 'l-', r(40, HEX))),
    tok('prefect-api-token', p('pn', 'u_', r(36, AN))),
    tok('readme-api-token', p('rd', 'me_', r(70, LO + DIG))),
    tok('rubygems-api-token', p('ruby', 'gems_', r(48, HEX))),
    tok('scalingo-api-token', p('tk', '-us-', r(48, WD))),
    tok('sentry-user-token', p('sntr', 'yu_', r(64, HEX))),
    tok('shippo-api-token', p('shippo', '_live_', r(40, HEX))),
    tok('square-access-token', p('EA', 'AA', r(60, WD))),
    named('typeform-api-token', 'TYPEFORM_TOKEN', p('tf', 'p_', r(59, LO + DIG))),
    tok('age-secret-key', p('AGE-SECRET', '-KEY-1', r(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'))),
    tok('alibaba-access-key-id', p('LT', 'AI', r(20, LO + DIG))),
    tok('clojars-api-token', p('CLOJARS', '_', r(60, LO + DIG))),
    tok('flyio-access-token', p('fo', '1_', r(43, WD))),
    tok('planetscale-api-token', p('pscale', '_tkn_', r(43, WD))),
    tok('perplexity-api-key', p('pp', 'lx-', r(48, AN))),
    tok('groq api key', p('gs', 'k_', r(52, AN))),
    tok('figma pat', p('fi', 'gd_', r(40, WD))),
    named('airtable-personnal-access-token', 'AIRTABLE_TOKEN', p('pat', r(14, AN), '.', r(64, HEX))),
    tok('1password-service-account-token', p('op', 's_eyJ', r(260, B64))),
    { provider: 'url credentials', secret: r(20, AN), text: '' },
    { provider: 'postgres connection string', secret: r(18, AN), text: '' },
    { provider: 'authorization bearer header', secret: r(40, AN), text: '' },
    named('generic password assignment', 'DB_PASSWORD', r(24, AN)),
    { provider: 'rsa private key (pem)', secret: pemBody.split('\n')[3]!, text: p('-----BEGIN RSA ', 'PRIVATE KEY-----\n', pemBody, '\n-----END RSA ', 'PRIVATE KEY-----'), multiline: true },
  ].map((s) => {
    if (s.text) return s;
    if (s.provider === 'url credentials') return { ...s, text: `https://ci-bot:${s.secret}@git.example.com/org/repo.git` };
    if (s.provider === 'postgres connection string') return { ...s, text: `postgres://app:${s.secret}@db.internal:5432/app` };
    return { ...s, text: `Authorization: Bearer ${s.secret}` };
  });
}

/**
 * What must stay readable: placeholders, and the hashes and ids a log is full of. `x`-filled tokens are
 * gitleaks' own false-positive examples (`ghp_xxxx…`).
 */
export function notSecrets(seed: number): string[] {
  const r = makeRandom(seed ^ 0x5bd1e995);
  return [
    p('gh', 'p_', 'x'.repeat(36)),
    p('sk', '_live_', 'X'.repeat(24)),
    p('AK', 'IA', 'X'.repeat(16)),
    '<token>',
    'token: <your-token-here>',
    'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
    r(40, HEX), // a git SHA
    `commit ${r(40, HEX)}`,
    `sha256:${r(64, HEX)}`, // a docker digest
    `${r(64, HEX)}  dist/redline.tgz`, // sha256sum output
    `${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-8${r(3, HEX)}-${r(12, HEX)}`, // a UUID
    `request-id: ${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-9${r(3, HEX)}-${r(12, HEX)}`,
  ];
}
