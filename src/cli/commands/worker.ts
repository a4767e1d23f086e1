import { type Command, Option } from "commander";
import { ConfigError } from "../../core/errors.ts";
import { log } from "../../util/log.ts";
import { asText, untilStopped } from "../options.ts";

interface WorkerFlags {
  queue?: string;
  queueName?: string;
  parallelUnits: string | number;
  /** Deprecated alias of --parallel-units. */
  concurrency?: string;
  lockMs: string | number;
  stalledMs: string | number;
  maxStalled: string | number;
}

function wholeNumber(value: string | number, flag: string, min = 1): number {
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
    .option("--parallel-units <n>", "units executed at once by this worker", asText, 1)
    .addOption(new Option("--concurrency <n>", "deprecated: --parallel-units").hideHelp())
    .option(
      "--lock-ms <ms>",
      "lock of a running unit; a unit whose worker died is retried this long after it stopped renewing",
      asText,
      60000,
    )
    .option("--stalled-ms <ms>", "how often to look for units whose worker died", asText, 30000)
    .option("--max-stalled <n>", "times a unit may lose its worker before it is dead-lettered", asText, 2)
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
    .addHelpText(
      "after",
      `
Examples:
  membench worker --queue redis://localhost:6379
  membench worker --queue redis://:secret@queue-host:6379/0 --parallel-units 4`,
    )
    .action(async (flags: WorkerFlags, cmd: Command) => {
      if (flags.concurrency !== undefined) {
        log.warn("--concurrency is deprecated: it is --parallel-units (units at once)");
        if (cmd.getOptionValueSource("parallelUnits") !== "cli") flags.parallelUnits = flags.concurrency;
      }
      if (!flags.queue) throw new ConfigError("--queue redis://host:port is required", "queue", "--queue");
      const { checkRedisUrl } = await import("../../util/redis.ts");
      const { runWorker } = await import("../../pool/worker.ts");
      await runWorker({
        url: checkRedisUrl(flags.queue),
        queueName: flags.queueName,
        concurrency: wholeNumber(flags.parallelUnits, "parallel-units"),
        lockMs: wholeNumber(flags.lockMs, "lock-ms", 100),
        stalledMs: wholeNumber(flags.stalledMs, "stalled-ms", 100),
        maxStalled: wholeNumber(flags.maxStalled, "max-stalled", 0),
        stop: untilStopped(),
      });
    });
}
