/**
 * Progress on stderr: a bar with ETA and running cost on a terminal, plain
 * lines every few seconds otherwise (so logs stay readable when piped).
 *
 * Besides the probes it counts, a run reports ingestion per unit (system ×
 * episode) in turns per second: with an embedding system, ingest is most of
 * the time (about 3 s per LoCoMo session with the offline embedder) and no
 * probe fires while it runs.
 */
import cliProgress from "cli-progress";
import { log } from "../util/log.ts";

export interface Progress {
  tick(n?: number, cost?: string): void;
  /** A unit has ingested `done` of its `total` turns: 0 before its first ingest call, then after each. */
  ingest(unit: string, done: number, total: number): void;
  stop(): void;
}

/** How often a piped run prints a line, at most. */
const LINE_EVERY_MS = 5000;

const SILENT: Progress = { tick: () => {}, ingest: () => {}, stop: () => {} };

/** Turns per second of each unit since its first ingest call, and how many units finished ingesting. */
export class IngestMeter {
  private readonly started = new Map<string, number>();
  private finished = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a step; returns the unit's rate and whether it has just finished ingesting. */
  step(unit: string, done: number, total: number): { rate: number; finished: boolean } {
    const t = this.now();
    let start = this.started.get(unit);
    if (start === undefined) {
      start = t;
      this.started.set(unit, t);
    }
    const seconds = (t - start) / 1000;
    // The first call (0 turns) starts the clock; a unit with no turns finishes there.
    const finished = done >= total && (done > 0 || total === 0);
    if (finished) this.finished++;
    return { rate: seconds > 0 ? done / seconds : 0, finished };
  }

  get unitsFinished(): number {
    return this.finished;
  }
}

/** `1234 turns/s`, `12.5 turns/s`, or `–` before a rate exists. */
export function formatRate(rate: number): string {
  if (!(rate > 0)) return "–";
  return `${rate >= 100 ? Math.round(rate) : rate.toFixed(1)} turns/s`;
}

/** `unit` names what is counted ("probes" for a run). */
export function startProgress(total: number, label: string, enabled = true, unit = "probes"): Progress {
  if (!enabled || log.level === "error") return SILENT;
  const meter = new IngestMeter();
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} ${unit} | {ingest} | ETA {eta_formatted} | cost {cost}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { cost: "-", ingest: "ingest –" });
    return {
      tick: (n = 1, cost = "-") => bar.increment(n, { cost }),
      ingest: (name, done, of) => {
        const { rate } = meter.step(name, done, of);
        bar.update({ ingest: `ingest ${name} ${done}/${of} turns, ${formatRate(rate)}` });
      },
      stop: () => bar.stop(),
    };
  }
  let done = 0;
  let last = 0;
  let lastIngest = 0;
  const started = Date.now();
  return {
    tick: (n = 1, cost = "-") => {
      done += n;
      const now = Date.now();
      if (now - last < LINE_EVERY_MS && done < total) return;
      last = now;
      const rate = done / Math.max(1, (now - started) / 1000);
      const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
      log.info(`${label}: ${done}/${total} ${unit}, ${rate.toFixed(1)}/s, ETA ${eta}s, cost ${cost}`);
    },
    ingest: (name, turns, of) => {
      const { rate, finished } = meter.step(name, turns, of);
      const now = Date.now();
      // Every unit's end, and a long ingest every few seconds (not its start: nothing to say yet).
      if (!finished && (turns === 0 || now - lastIngest < LINE_EVERY_MS)) return;
      lastIngest = now;
      log.info(
        `${label} ingest ${name}: ${turns}/${of} turns, ${formatRate(rate)}${finished ? ` (${meter.unitsFinished} units ingested)` : ""}`,
      );
    },
    stop: () => {},
  };
}
