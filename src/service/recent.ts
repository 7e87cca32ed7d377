/** What the status page shows of one diagnosis: where it pinned, never any log text. */
export interface RecentDiagnosis {
  /** ISO time the diagnosis finished. */
  at: string;
  /** owner/repo */
  repo: string;
  pr: number;
  /** `file:line`, or null when nothing was located. */
  pin: string | null;
  category: string;
  status: string;
  /** Where the comment went and what happened to it. */
  tier: string;
  action: string;
  /** Time from dequeue to published, in milliseconds. */
  ms: number;
}

export const DEFAULT_RECENT = 100;

/** A fixed-size ring buffer of the latest diagnoses (memory only; lost on restart, like the queue). */
export class RecentDiagnoses {
  private readonly items: RecentDiagnosis[] = [];
  private next = 0;

  constructor(readonly capacity = DEFAULT_RECENT) {}

  add(d: RecentDiagnosis): void {
    if (this.items.length < this.capacity) this.items.push(d);
    else this.items[this.next] = d;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Newest first. */
  list(): RecentDiagnosis[] {
    const ordered = this.items.length < this.capacity ? this.items.slice() : [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
    return ordered.reverse();
  }
}
