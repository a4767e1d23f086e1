/**
 * Progress on stderr: a bar with ETA and running cost on a terminal, plain
 * lines every few seconds otherwise (so logs stay readable when piped).
 */
import cliProgress from "cli-progress";
import { log } from "../util/log.ts";

export interface Progress {
  tick(n?: number, cost?: string): void;
  stop(): void;
}

/** `unit` names what is counted ("probes" for a run). */
export function startProgress(total: number, label: string, enabled = true, unit = "probes"): Progress {
  if (!enabled || log.level === "error") return { tick: () => {}, stop: () => {} };
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} ${unit} | ETA {eta_formatted} | cost {cost}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { cost: "-" });
    return {
      tick: (n = 1, cost = "-") => bar.increment(n, { cost }),
      stop: () => bar.stop(),
    };
  }
  let done = 0;
  let last = 0;
  const started = Date.now();
  return {
    tick: (n = 1, cost = "-") => {
      done += n;
      const now = Date.now();
      if (now - last < 5000 && done < total) return;
      last = now;
      const rate = done / Math.max(1, (now - started) / 1000);
      const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
      log.info(`${label}: ${done}/${total} ${unit}, ${rate.toFixed(1)}/s, ETA ${eta}s, cost ${cost}`);
    },
    stop: () => {},
  };
}
