import { readSync } from 'node:fs';
import { LINE_COUNT_BLOCK_BYTES } from '../limits.js';

/**
 * Numbers line starts of a file walked forward: `lineAt(at)` counts the newlines between the last offset
 * asked for and `at`. The sampled middle reads a few windows of a dense stretch but must number their
 * lines exactly; this is the one reader of the whole stretch. It reads in small blocks that stay in the
 * CPU cache with synchronous reads (measured on a 1 GB log of 100-byte lines: ~0.4 s of CPU per GB
 * against ~0.9 s for 4 MB async reads; the file is in the page cache, ripgrep has just read it).
 */
export class LineCounter {
  private readonly buf = Buffer.allocUnsafe(LINE_COUNT_BLOCK_BYTES);

  /** `pos` is a line start whose number is `n`. */
  constructor(
    private readonly fd: number,
    private pos: number,
    private n: number,
  ) {}

  /** The number of the line starting at `at` (at ≥ every offset asked before; a line start). */
  lineAt(at: number): number {
    const buf = this.buf;
    while (this.pos < at) {
      const want = Math.min(buf.length, at - this.pos);
      const got = readSync(this.fd, buf, 0, want, this.pos);
      if (got <= 0) break;
      let n = 0;
      for (let p = buf.indexOf(10); p !== -1 && p < got; p = buf.indexOf(10, p + 1)) n++;
      this.n += n;
      this.pos += got;
    }
    return this.n;
  }
}
