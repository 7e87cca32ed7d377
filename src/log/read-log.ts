import { stat } from 'node:fs/promises';
import { isGzipFile, isUtf16leFile, openLog, type LogSource } from './open-log.js';
import { scanLog, type LogScan } from './scan-log.js';
import { scanBigFile } from './scan-big-file.js';
import { FULL_KEEP_BYTES } from '../limits.js';
import { MIDDLE_BOUNDS, type MiddleBounds } from './middle-hits.js';

/**
 * Reads a log into a LogScan with bounded memory. A big plain file on disk takes the fast path (head,
 * tail and ripgrep's literal prefilter); everything else (stdin, gzip, HTTP bodies, normal-size files)
 * streams through the JavaScript scanner (so does a UTF-16LE file, transcoded as it streams).
 */
export async function readLog(source: LogSource, bounds: MiddleBounds = MIDDLE_BOUNDS): Promise<LogScan> {
  if (typeof source === 'string' && source !== '-') {
    const s = await stat(source).catch(() => null);
    if (s?.isFile() && s.size > FULL_KEEP_BYTES && !(await isGzipFile(source)) && !(await isUtf16leFile(source))) return scanBigFile(source, s.size, bounds);
  }
  const state = { capped: false };
  return scanLog(openLog(source, state), state, bounds);
}
