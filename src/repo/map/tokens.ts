import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Token counts for budgets. Anthropic's tokenizer is not public; cl100k_base is a close, stable stand-in
 * (within ~10% on code), and a budget only needs to be consistent, not exact. Loaded once, offline: the
 * ranks ship inside js-tiktoken.
 */
let enc: Tiktoken | undefined;

export function countTokens(text: string): number {
  enc ??= new Tiktoken(cl100k);
  // The encoder's cost grows with very long unbroken runs; long texts are counted in slices.
  if (text.length <= 100_000) return enc.encode(text).length;
  let n = 0;
  for (let i = 0; i < text.length; i += 100_000) n += enc.encode(text.slice(i, i + 100_000)).length;
  return n;
}

export interface TokenCounter {
  count(text: string): Promise<number>;
  close(): void;
}

/**
 * A counter whose encoder is built on the second core while the caller does other work (a warm
 * `redline map` spends a third of its time building the encoder otherwise). Falls back to counting on
 * this thread where the worker cannot start (running from sources under a test runner).
 */
export function backgroundTokenCounter(): TokenCounter {
  const url = new URL('./token-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return { count: async (t) => countTokens(t), close: () => {} };
  const worker = new Worker(url);
  worker.unref();
  const waiting = new Map<number, (n: number) => void>();
  let next = 0;
  let failed = false;
  worker.on('message', (m: { id: number; n: number }) => {
    waiting.get(m.id)?.(m.n);
    waiting.delete(m.id);
  });
  worker.on('error', () => {
    failed = true;
    for (const [id, resolve] of waiting) resolve(-1 - id);
    waiting.clear();
  });
  return {
    async count(text) {
      if (failed) return countTokens(text);
      const id = next++;
      const n = await new Promise<number>((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage({ id, text });
      });
      return n < 0 ? countTokens(text) : n;
    },
    close: () => void worker.terminate(),
  };
}
