import { readFileSync } from 'node:fs';
import { cleanText } from '../../src/log/clean.js';
import type { LogLine } from '../../src/types.js';

/** Reads a recorded log and cleans it the way the pipeline does, for matcher tests. */
export function logLines(path: string): LogLine[] {
  return cleanText(readFileSync(path, 'utf8'));
}
