import { randomBytes } from 'node:crypto';
import { spawnBoundedRg, type BoundedRg } from './bounded-rg.js';
import { MIDDLE_TARGETED_LINES } from '../limits.js';

/** A run of whole lines of a stream, handed to ripgrep and back with the line starts it matched. */
export interface TapSegment {
  buf: Buffer;
}

/**
 * ripgrep searching a stream beside us (stdin: gunzipped or piped bytes never touch the disk) for a few
 * literals — step and error markers, needles rare so far — so that the stream scanner can skip the
 * lines between its sample windows without looking at them. Each segment is followed on ripgrep's stdin
 * by a sentinel line holding a random nonce (a log cannot guess it): when ripgrep prints the sentinel,
 * every match in the segment has been printed, so segments come back complete and in order, with the
 * offsets of their matching lines. Sentinels are not part of the log: offsets are per segment.
 */
export class TargetedTap {
  private readonly rg: BoundedRg;
  private readonly sentinel: Buffer;
  /** Segments written and not yet confirmed, with where each one and its sentinel sit in ripgrep's input. */
  private readonly queue: { seg: TapSegment; start: number; sentinelAt: number; hits: number[] }[] = [];
  private written = 0;
  private pendingBytes = 0;
  private carry = '';
  private failed = false;
  /** Lines ripgrep matched so far; past MIDDLE_TARGETED_LINES the tap goes blind (below). */
  private matched = 0;
  private blind = false;
  private waiters: (() => void)[] = [];
  readonly done: Promise<void>;

  constructor(
    literals: readonly string[],
    private readonly onSegment: (seg: TapSegment, lineStarts: number[]) => void,
    private readonly onFail: (pending: TapSegment[]) => void,
  ) {
    const nonce = randomBytes(12).toString('hex');
    this.sentinel = Buffer.from(`redline-sync-${nonce}\n`);
    const args = ['--text', '--byte-offset', '--no-line-number', '--no-filename', '--color=never', '--fixed-strings', '--max-columns=1', '--line-buffered', ...literals.flatMap((l) => ['-e', l]), '-e', `redline-sync-${nonce}`, '-'];
    this.rg = spawnBoundedRg(args, { stdin: true, onChunk: (d) => this.onOutput(d) });
    this.done = this.rg.done.then(
      (r) => {
        if (r.code === 2 || this.queue.length) this.fail();
      },
      () => this.fail(),
    );
  }

  /** Bytes handed to ripgrep and not yet back. */
  get pending(): number {
    return this.pendingBytes;
  }

  /** Hands a segment (whole lines, ending in a newline) to ripgrep. */
  push(seg: TapSegment): void {
    if (this.blind) {
      this.onSegment(seg, []);
      return;
    }
    if (this.failed) {
      this.onFail([seg]);
      return;
    }
    const start = this.written;
    this.written += seg.buf.length;
    this.queue.push({ seg, start, sentinelAt: this.written, hits: [] });
    this.written += this.sentinel.length;
    this.pendingBytes += seg.buf.length;
    // One write of both (writev).
    this.rg.stdin!.cork();
    this.rg.stdin!.write(seg.buf);
    this.rg.stdin!.write(this.sentinel);
    this.rg.stdin!.uncork();
  }

  /** Resolves once no more than `bytes` are pending (or ripgrep failed). */
  async waitBelow(bytes: number): Promise<void> {
    while (!this.failed && this.pendingBytes > bytes) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** No more segments: resolves when every one came back (or was handed to onFail). */
  async end(): Promise<void> {
    if (!this.failed && !this.blind) this.rg.stdin!.end();
    await this.done;
  }

  /** Stops ripgrep; the segments it had not answered for go to onFail. */
  abandon(): void {
    this.fail();
  }

  private onOutput(d: Buffer): void {
    if (this.failed || this.blind) return;
    const text = this.carry + d.toString('latin1');
    const lines = text.split('\n');
    this.carry = lines.pop()!;
    for (const l of lines) {
      const at = Number(l.slice(0, l.indexOf(':')));
      const head = this.queue[0];
      if (!head || !Number.isFinite(at)) continue;
      if (at === head.sentinelAt) {
        this.queue.shift();
        this.pendingBytes -= head.seg.buf.length;
        this.onSegment(head.seg, head.hits);
        this.wake();
      } else if (at >= head.start && at < head.sentinelAt) {
        head.hits.push(at - head.start);
        if (++this.matched >= MIDDLE_TARGETED_LINES) return this.goBlind();
      }
    }
  }

  /**
   * Markers and rare needles on every line (20 M `##[error]` lines) are not rare: ripgrep is stopped, the
   * segments it held are handed on with the lines it matched so far, and every later one with none, so
   * the windows sample the rest like any dense stretch (time and memory bounded whatever the log says).
   */
  private goBlind(): void {
    this.blind = true;
    this.rg.kill();
    const held = this.queue.splice(0);
    this.pendingBytes = 0;
    for (const q of held) this.onSegment(q.seg, q.hits);
    this.wake();
  }

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    this.rg.kill();
    const pending = this.queue.splice(0).map((q) => q.seg);
    this.pendingBytes = 0;
    this.onFail(pending);
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
