/**
 * With `redline worker` processes doing the diagnoses, the App's status page (recent diagnoses) and its
 * 👍/👎 counts (which PRs to read reactions on) would see nothing: workers push each published outcome
 * onto a capped Redis list, and the App takes them when the status page is asked for. Several App
 * replicas would split the feed between them: each shows what it took.
 */
import { Redis } from 'ioredis';
import type { SharedOutcome } from './service.js';

/** Outcomes kept while no one looks at the status page. */
const FEED_MAX = 1_000;

export class RedisOutcomeFeed {
  private readonly redis: Redis;
  private readonly key: string;

  constructor(url: string, prefix = 'redline') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5_000 });
    this.redis.on('error', () => {});
    this.key = `${prefix}:outcomes`;
  }

  async push(o: SharedOutcome): Promise<void> {
    await this.redis.multi().lpush(this.key, JSON.stringify(o)).ltrim(this.key, 0, FEED_MAX - 1).exec();
  }

  /** Takes everything pushed since the last call, oldest first. */
  async pull(): Promise<SharedOutcome[]> {
    const [[, items]] = (await this.redis.multi().lrange(this.key, 0, -1).del(this.key).exec()) as [[unknown, string[]], unknown];
    return items.reverse().map((s) => JSON.parse(s) as SharedOutcome);
  }

  close(): void {
    this.redis.disconnect();
  }
}
