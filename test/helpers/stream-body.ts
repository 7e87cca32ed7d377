import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

/** A webhook POST whose body is streamed, for the size-cap tests (test/app/hostile-webhooks.e2e.test.ts, probot-run.e2e.test.ts). */

const MB = 1024 * 1024;

export interface StreamResult {
  status?: number;
  body: string;
  /** Bytes the client had handed to the socket when the answer came (or when the connection was cut). */
  sentAtAnswer: number;
  /** The client's error when the connection was cut before any answer (EPIPE, ECONNRESET). */
  error?: string;
  /** Peak growth of `rss()` (sampled every 2 ms) over its value before the request, in MB. */
  peakGrowthMB: number;
  ms: number;
}

export interface StreamOptions {
  /** A Content-Length to send; without it the body goes chunked. */
  declared?: number;
  headers?: Record<string, string>;
  /** What to sample: this process' RSS by default (the in-process App), or a child's (`childRss`). */
  rss?: () => number;
}

/** The resident set of another process, read from /proc (Linux). */
export const childRss = (pid: number) => (): number => {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

/** Streams `chunks` to `url` as a webhook delivery (bogus signature unless `headers` has one), sampling memory meanwhile. */
export function streamBody(url: string, chunks: Iterable<Buffer>, opts: StreamOptions = {}): Promise<StreamResult> {
  const rss = opts.rss ?? (() => process.memoryUsage().rss);
  const base = rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 2);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const u = new URL(url);
    let sent = 0;
    let sentAtAnswer: number | undefined;
    let status: number | undefined;
    let body = '';
    let settled = false;
    const done = (error?: string): void => {
      if (settled) return;
      settled = true;
      clearInterval(sampler);
      peak = Math.max(peak, rss());
      resolve({ status, body, sentAtAnswer: sentAtAnswer ?? sent, ...(error ? { error } : {}), peakGrowthMB: Math.round((peak - base) / MB), ms: Math.round(performance.now() - t0) });
    };
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/fake',
        'x-github-event': 'workflow_job',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
        ...(opts.declared !== undefined ? { 'content-length': String(opts.declared) } : {}),
        ...opts.headers,
      },
    });
    req.on('response', (res) => {
      sentAtAnswer = sent;
      status = res.statusCode;
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => done());
      res.on('error', () => done());
    });
    // The server closes the connection after refusing: writes still going fail (EPIPE, ECONNRESET).
    req.on('error', (e) => (status === undefined ? done(e.message) : undefined));
    const it = chunks[Symbol.iterator]();
    const pump = (): void => {
      for (;;) {
        if (settled || req.destroyed) return;
        const next = it.next();
        if (next.done) return void req.end();
        sent += next.value.length;
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}
