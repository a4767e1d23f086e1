import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import { untilStopped } from "../options.ts";

interface WorkerFlags {
  queue?: string;
  queueName?: string;
  concurrency: string;
  lockMs: string;
  stalledMs: string;
  maxStalled: string;
}

function wholeNumber(value: string, flag: string, min = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigError(`expected a whole number ≥ ${min}, got "${value}"`, flag, `--${flag}`);
  }
  return n;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description("take work units from a `run --queue` pool (BullMQ on Redis), execute them, send their results back")
    .option("--queue <url>", "the pool's Redis, redis://[:password@]host:port[/db]")
    .option("--queue-name <name>", "BullMQ queue name, as given to `run --queue-name`", "membench")
    .option("--concurrency <n>", "units executed at once by this worker", "1")
    .option(
      "--lock-ms <ms>",
      "lock of a running unit; a unit whose worker died is retried this long after it stopped renewing",
      "60000",
    )
    .option("--stalled-ms <ms>", "how often to look for units whose worker died", "30000")
    .option("--max-stalled <n>", "times a unit may lose its worker before it is dead-lettered", "2")
    .addHelpText(
      "after",
      `
Each job carries its run's config.json. The worker builds the run's systems and
model as a local run would: the data path (and a scripted model's file, a
system module's path) must be readable at the same path on this machine, and
the data files must hash as the coordinator recorded (else the unit is refused
and retried elsewhere). The model endpoint and key come from this machine's
environment (MEMBENCH_* / OPENAI_*), never from the queue. MEMBENCH_CONCURRENCY
and MEMBENCH_RPS are global: every worker and the coordinator share them through
the Redis. Results go back through the queue; the coordinator stores them.
Ctrl-C (or SIGTERM) finishes the running units, then stops.`,
    )
    .action(async (flags: WorkerFlags) => {
      if (!flags.queue) throw new ConfigError("--queue redis://host:port is required", "queue", "--queue");
      const { checkRedisUrl } = await import("../../util/redis.ts");
      const { runWorker } = await import("../../pool/worker.ts");
      await runWorker({
        url: checkRedisUrl(flags.queue),
        queueName: flags.queueName,
        concurrency: wholeNumber(flags.concurrency, "concurrency"),
        lockMs: wholeNumber(flags.lockMs, "lock-ms", 100),
        stalledMs: wholeNumber(flags.stalledMs, "stalled-ms", 100),
        maxStalled: wholeNumber(flags.maxStalled, "max-stalled", 0),
        stop: untilStopped(),
      });
    });
}
