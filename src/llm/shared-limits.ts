/**
 * Model limits shared by every process of a worker pool, held in Redis: at most
 * `concurrency` calls in flight and at most `rps` call starts per second against
 * one endpoint, summed over all workers (MEMBENCH_CONCURRENCY and MEMBENCH_RPS
 * become global when a queue is configured; docs/llm.md).
 *
 * - In flight: a sorted set of leases (member = call token, score = expiry in
 *   Redis time). A call takes a lease when fewer than `concurrency` are live and
 *   renews it while it runs, so a worker killed mid-call frees its slot when the
 *   lease expires instead of holding it forever.
 * - Rate: the next free start time, kept in one key. Each call reserves the
 *   earliest start at least 1/rps after the previous reservation and waits until
 *   then, so starts are spaced evenly across machines like the local limiter's.
 *
 * Both are Lua scripts on Redis's own clock, so workers whose clocks disagree
 * still share one schedule. The slot is taken before the rate reservation: a
 * call that waits for a slot does not hold a start time it cannot use.
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { connectRedis, redactRedisUrl } from "../util/redis.ts";
import { ModelCallError } from "./errors.ts";
import type { ChatModel, ChatRequest, ChatResult } from "./types.ts";
import { DelegatingChatModel } from "./wrap.ts";

/** Redis time in ms, as a Lua prelude. */
const NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/** KEYS[1] lease set; ARGV: limit, token, lease ms. 1 when the lease was taken. */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2)
  return 1
end
return 0`;

/** KEYS[1] lease set; ARGV: token, lease ms. Extends a live lease. */
const RENEW = `${NOW}
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1`;

/** KEYS[1] next start; ARGV: interval ms. The wait, in ms, before the reserved start. */
const RESERVE = `${NOW}
local interval = tonumber(ARGV[1])
local start = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], start + interval, 'PX', start + interval - now + 60000)
return start - now`;

export interface SharedLimitOptions {
  /** `redis://host:port` of the pool. */
  url: string;
  /** What the limits are for, usually the endpoint: calls with the same key share them. */
  key: string;
  /** Calls in flight at once across all processes (default 8). */
  concurrency?: number;
  /** Call starts per second across all processes; unset or 0 means unlimited. */
  rps?: number;
  /** How long a lease lives without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** Upper bound of the wait between attempts to take a slot (default 50 ms). */
  pollMs?: number;
  /** Key prefix (default `membench:limits`). */
  prefix?: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RedisCallLimiter {
  readonly concurrency: number;
  readonly rps: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly inflightKey: string;
  private readonly nextKey: string;
  private client: Promise<Redis> | undefined;
  private closed = false;

  constructor(private readonly options: SharedLimitOptions) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
    this.rps = options.rps && options.rps > 0 ? options.rps : 0;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 50;
    const base = `${options.prefix ?? "membench:limits"}:${options.key}`;
    this.inflightKey = `${base}:inflight`;
    this.nextKey = `${base}:next`;
  }

  private redis(): Promise<Redis> {
    this.client ??= connectRedis(this.options.url, { name: "membench-limits" });
    return this.client;
  }

  private failure(error: unknown): ModelCallError {
    return new ModelCallError(
      `shared model limits at ${redactRedisUrl(this.options.url)} unavailable: ${(error as Error).message}`,
      { endpoint: this.options.key, retryable: false },
      { cause: error },
    );
  }

  /** Runs `fn` inside a global slot, after its reserved start time. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const token = randomUUID();
    let redis: Redis;
    try {
      redis = await this.redis();
      let wait = 1;
      while (!(await redis.eval(ACQUIRE, 1, this.inflightKey, this.concurrency, token, this.leaseMs))) {
        if (this.closed) throw new Error("the limiter was closed");
        // Jittered, growing waits: many waiters across machines do not poll in lockstep.
        await sleep(Math.random() * wait);
        wait = Math.min(this.pollMs, wait * 2);
      }
    } catch (error) {
      throw this.failure(error);
    }
    const renew = setInterval(
      () => {
        redis.eval(RENEW, 1, this.inflightKey, token, this.leaseMs).catch(() => {});
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    try {
      if (this.rps) {
        let delay: number;
        try {
          delay = Number(await redis.eval(RESERVE, 1, this.nextKey, Math.max(1, Math.round(1000 / this.rps))));
        } catch (error) {
          throw this.failure(error);
        }
        if (delay > 0) await sleep(delay);
      }
      return await fn();
    } finally {
      clearInterval(renew);
      await redis.zrem(this.inflightKey, token).catch(() => {});
    }
  }

  close(): void {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    client?.then((r) => r.disconnect()).catch(() => {});
  }
}

/** Calls the inner model inside the pool's global limits. */
export class SharedLimitedChatModel extends DelegatingChatModel {
  constructor(
    inner: ChatModel,
    readonly shared: RedisCallLimiter,
  ) {
    super(inner);
  }
  chat(req: ChatRequest): Promise<ChatResult> {
    return this.shared.run(() => this.inner.chat(req));
  }
}

let poolUrl: string | undefined;

/**
 * Makes every model stack built from now on in this process share its limits
 * through the pool's Redis (the coordinator and `membench worker` call it with
 * their `--queue`); undefined turns it off.
 */
export function shareModelLimits(url: string | undefined): void {
  poolUrl = url;
}

/** The Redis URL model limits are shared through, if a pool is configured in this process. */
export function sharedLimitsUrl(): string | undefined {
  return poolUrl;
}

const open = new Map<string, { limiter: RedisCallLimiter; users: number }>();

/**
 * The limiter for these limits, one per process and key, so every stack on one
 * endpoint (the answerer, the judges) waits in the same global slots. Each user
 * releases it once; the connection closes with the last.
 */
export function acquireSharedLimiter(options: SharedLimitOptions): { limiter: RedisCallLimiter; release: () => void } {
  const id = JSON.stringify([options.url, options.key, options.concurrency, options.rps, options.prefix]);
  let entry = open.get(id);
  if (!entry) {
    entry = { limiter: new RedisCallLimiter(options), users: 0 };
    open.set(id, entry);
  }
  entry.users++;
  const held = entry;
  let released = false;
  return {
    limiter: held.limiter,
    release: () => {
      if (released) return;
      released = true;
      if (--held.users === 0 && open.get(id) === held) {
        open.delete(id);
        held.limiter.close();
      }
    },
  };
}
