import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sign } from '@octokit/webhooks-methods';

/** Webhook deliveries as GitHub sends them, and the App key a test needs to start Probot. */

const require = createRequire(import.meta.url);

interface WebhookDefinition {
  name: string;
  actions: string[];
  examples: Array<Record<string, unknown> & { action?: string }>;
}

let definitions: WebhookDefinition[] | undefined;

/**
 * A deep copy of a real payload from `@octokit/webhooks-examples` for `event` (and `action` when given),
 * for the test to point at its fixture repo. Throws listing what exists when there is no such example.
 */
export function examplePayload<T = any>(event: string, action?: string): T { // eslint-disable-line @typescript-eslint/no-explicit-any
  definitions ??= JSON.parse(readFileSync(require.resolve('@octokit/webhooks-examples'), 'utf8')) as WebhookDefinition[];
  const def = definitions.find((d) => d.name === event);
  if (!def) throw new Error(`no webhook examples for event "${event}"`);
  const example = def.examples.find((e) => action === undefined || e.action === action);
  if (!example) {
    const have = [...new Set(def.examples.map((e) => e.action))].join(', ');
    throw new Error(`no "${event}" example with action "${action}" (have: ${have})`);
  }
  return structuredClone(example) as T;
}

export interface DeliverOptions {
  /** `X-GitHub-Delivery` (GitHub reuses it on a manual redelivery). Default: a new UUID. */
  id?: string;
  /** Break the signature: `true` signs with the wrong secret; 'body' changes the body after signing. */
  tamper?: boolean | 'body';
  /** Omit the signature header entirely. */
  unsigned?: boolean;
  /** Extra headers (e.g. `X-GitHub-Hook-Installation-Target-ID`). */
  headers?: Record<string, string>;
}

export interface DeliveryResult {
  id: string;
  status: number;
  body: string;
  headers: Headers;
}

/**
 * POSTs `payload` to `appUrl` as GitHub delivers a webhook: raw JSON body signed with HMAC-SHA256
 * (`X-Hub-Signature-256`), `X-GitHub-Event`, `X-GitHub-Delivery`, `User-Agent: GitHub-Hookshot/…`.
 */
export async function deliver(
  appUrl: string,
  event: string,
  payload: unknown,
  secret: string,
  opts: DeliverOptions = {},
): Promise<DeliveryResult> {
  const id = opts.id ?? randomUUID();
  let body = JSON.stringify(payload);
  const signature = await sign(opts.tamper === true ? `${secret}-wrong` : secret, body);
  if (opts.tamper === 'body') body = body.replace(/}$/, ',"tampered":true}');
  const res = await fetch(appUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake',
      'x-github-event': event,
      'x-github-delivery': id,
      'x-github-hook-id': '1',
      ...(opts.unsigned ? {} : { 'x-hub-signature-256': signature }),
      ...opts.headers,
    },
    body,
  });
  return { id, status: res.status, body: await res.text(), headers: res.headers };
}

/** A fresh RSA private key in the PKCS#1 PEM GitHub hands out (`-----BEGIN RSA PRIVATE KEY-----`). */
export function generateAppKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return privateKey;
}
