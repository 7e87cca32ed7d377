/**
 * The webhook guard's own edges, on a bare node:http server with a stub in place of @octokit/webhooks'
 * middleware (the real one, behind Probot, is in hostile-webhooks.e2e.test.ts and probot-run.e2e.test.ts).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { guardWebhookBodies, looksLikeJsonObject } from '../../src/doors/webhook-guard.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A server whose webhook middleware is the guard around a stub that records what reached it. */
async function serve(opts: { timeoutMs?: number; maxBytes?: number } = {}) {
  const reached: Array<{ url: string; raw?: string }> = [];
  const warned: string[] = [];
  const guard = guardWebhookBodies(
    async (req, res) => {
      const raw = (req as IncomingMessage & { rawBody?: Buffer }).rawBody;
      reached.push({ url: req.url ?? '', ...(raw ? { raw: raw.toString() } : {}) });
      res.writeHead(200).end('ok');
      return true;
    },
    { path: '/api/github/webhooks', log: { warn: (_f, m) => void warned.push(m) }, ...opts },
  );
  server = createServer((req, res) => void guard(req, res));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, reached, warned };
}

const HEADERS = { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': 'd1', 'x-hub-signature-256': 'sha256=00' };

it('the body reaches the middleware as rawBody; other paths and methods pass through unread', async () => {
  const s = await serve();
  expect((await fetch(`${s.url}/api/github/webhooks/`, { method: 'POST', headers: HEADERS, body: ' \n{"zen":1}' })).status).toBe(200);
  expect((await fetch(`${s.url}/redline/status`)).status).toBe(200);
  expect((await fetch(`${s.url}/api/github/webhooks`)).status).toBe(200);
  expect(s.reached).toEqual([{ url: '/api/github/webhooks/', raw: ' \n{"zen":1}' }, { url: '/redline/status' }, { url: '/api/github/webhooks' }]);
});

it('a wrong content type or missing headers go on to the middleware (its 415/400), not refused as "not an object"', async () => {
  const s = await serve();
  expect((await fetch(`${s.url}/api/github/webhooks`, { method: 'POST', headers: { ...HEADERS, 'content-type': 'application/x-www-form-urlencoded' }, body: 'payload=1' })).status).toBe(200);
  expect((await fetch(`${s.url}/api/github/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' })).status).toBe(200);
  expect(s.reached).toHaveLength(2);
});

it('a body still trickling in after the deadline → 408, connection closed, nothing reaches the middleware', async () => {
  const s = await serve({ timeoutMs: 200 });
  const u = new URL(s.url);
  const status = await new Promise<number | string>((resolve) => {
    const req = request({ host: u.hostname, port: u.port, path: '/api/github/webhooks', method: 'POST', headers: HEADERS }, (res) => {
      resolve(res.statusCode!);
      res.resume();
    });
    req.on('error', (e) => resolve(e.message));
    req.write('{"zen":'); // and nothing more
  });
  expect(status).toBe(408);
  expect(s.warned).toEqual([expect.stringMatching(/^redline: webhook refused \(408\): body still arriving after 200 ms \(7 bytes\); cut off$/)]);
  expect(s.reached).toEqual([]);
});

it('a client that goes away mid-body: no answer, no crash, nothing reaches the middleware', async () => {
  const s = await serve();
  const u = new URL(s.url);
  await new Promise<void>((resolve) => {
    const req = request({ host: u.hostname, port: u.port, path: '/api/github/webhooks', method: 'POST', headers: { ...HEADERS, 'content-length': '1000' } });
    req.on('error', () => resolve());
    req.write('{"zen":', () => setTimeout(() => req.destroy(), 50));
  });
  await new Promise((r) => setTimeout(r, 100));
  expect(s.reached).toEqual([]);
  expect((await fetch(`${s.url}/api/github/webhooks`, { method: 'POST', headers: HEADERS, body: '{}' })).status).toBe(200);
});

it('looksLikeJsonObject: only the first byte after a BOM and JSON whitespace counts', () => {
  for (const yes of ['{}', ' \t\r\n{', '\uFEFF{"a":1}', '{ not json at all']) expect(looksLikeJsonObject(Buffer.from(yes)), yes).toBe(true);
  for (const no of ['', '   ', 'null', '[{}]', '"{"', '42', '\u00A0{', 'x{']) expect(looksLikeJsonObject(Buffer.from(no)), no).toBe(false);
});
