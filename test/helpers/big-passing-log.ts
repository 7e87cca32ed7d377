import { Readable } from 'node:stream';

/**
 * A passing log of `bytes` bytes, generated as it is read (never held whole): the real passing log's
 * steps, with the aligned step's body grown by real passing lines repeated (their durations varied, as
 * a real long test run prints them). For the "a 1 GB passing log stays within bounds" scenarios; the
 * tests bound the size they ask for, the bench (scripts/bench-history.mjs) reads a full gigabyte.
 */
export function bigPassingLog(passing: string, opts: { step: string; filler: string[]; bytes: number }): () => Readable {
  const lines = passing.split('\n');
  const at = lines.findIndex((l) => l.includes(`##[group]Run ${opts.step}`));
  if (at < 0) throw new Error(`bigPassingLog: no step "${opts.step}" in the passing log`);
  // The step's header lines (its group, command, shell, endgroup) come before the filler.
  const end = lines.findIndex((l, i) => i > at && l.includes('##[endgroup]'));
  const head = `${lines.slice(0, end + 1).join('\n')}\n`;
  const tail = lines.slice(end + 1).join('\n');
  const stamp = (lines[at] ?? '').slice(0, 29);
  return () => {
    let sent = 0;
    let k = 0;
    let phase: 'head' | 'body' | 'done' = 'head';
    return new Readable({
      read() {
        if (phase === 'head') {
          phase = 'body';
          sent += head.length;
          this.push(head);
          return;
        }
        if (phase === 'body') {
          if (sent >= opts.bytes) {
            phase = 'done';
            this.push(tail);
            return;
          }
          const chunk = opts.filler.map((l) => `${stamp}${l.replace(/\d+(?:\.\d+)? s\b/g, () => `${(k++ % 997) / 100} s`)}`).join('\n') + '\n';
          sent += chunk.length;
          this.push(chunk);
          return;
        }
        this.push(null);
      },
    });
  };
}
