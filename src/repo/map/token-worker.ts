import { parentPort } from 'node:worker_threads';
import { countTokens } from './tokens.js';

// Building the encoder is the slow part (~0.3 s): do it at once, while the main thread reads the tags.
countTokens('');
parentPort?.on('message', (m: { id: number; text: string }) => parentPort!.postMessage({ id: m.id, n: countTokens(m.text) }));
