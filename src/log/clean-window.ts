import { setImmediate as yieldNow } from 'node:timers/promises';
import { MAX_LOG_LINE_BYTES } from '../limits.js';
import { cleanLine } from './clean.js';
import { mayHoldMarker } from './markers.js';

/** Lines cleaned between yields to the event loop (ripgrep's output is read meanwhile: ~10 ms of work). */
const LINES_PER_YIELD = 4096;

/** A window of raw lines cleaned before their numbers are known (the caller numbers them). */
export interface CleanedWindow {
  /** Line i's cleaned text (cut at MAX_LOG_LINE_BYTES, with a note saying so). */
  texts: string[];
  /** The raw text of each line that may hold a section marker, by index (its markers need its number). */
  markerRaws: Map<number, string>;
}

/**
 * Cleans the lines buf[starts[i], ends[i]) of a contiguous window, yielding to the event loop every few
 * thousand lines: the file path cleans its tail window while ripgrep still searches the middle (the
 * numbers come from that search), so the second core's wait is not spent idle; `pause` (checked between
 * slices) returns a promise to wait for when the search keeps this thread busy itself. The window is decoded at
 * once and split: a newline is never inside a UTF-8 sequence, so each piece decodes as it would alone.
 */
export async function cleanWindow(buf: Buffer, starts: readonly number[], ends: readonly number[], pause: () => Promise<void> | null = () => null): Promise<CleanedWindow> {
  const count = starts.length;
  const raws = count > 0 ? buf.toString('utf8', starts[0]!, ends[count - 1]!).split('\n') : [];
  const texts = new Array<string>(count);
  const markerRaws = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % LINES_PER_YIELD === 0) await (pause() ?? yieldNow());
    const whole = raws.length === count ? raws[i]! : buf.toString('utf8', starts[i]!, Math.min(ends[i]!, starts[i]! + MAX_LOG_LINE_BYTES + 1));
    const cut = whole.length > MAX_LOG_LINE_BYTES;
    const raw = cut ? whole.slice(0, MAX_LOG_LINE_BYTES) : whole;
    if (mayHoldMarker(raw)) markerRaws.set(i, raw);
    texts[i] = cleanLine(raw) + (cut ? ` … [line cut at ${MAX_LOG_LINE_BYTES} bytes]` : '');
  }
  return { texts, markerRaws };
}
