/**
 * The model stage of a run: answer calls for records whose context the replay
 * froze, then the judge calls of each record as soon as its answer is in.
 * Nothing here waits for a unit, a probe or a batch: every call is started at
 * once and waits only in the model's limiter, the one queue (at
 * MEMBENCH_CONCURRENCY) that answers and judges of every probe, unit and
 * system share. The replay meanwhile goes on to the next probe.
 */

import type { Protocol } from "../benchmarks/shared/protocol.ts";
import type { Probe } from "../core/model.ts";
import type { ProbeRecord } from "../core/record.ts";
import type { UsageSink } from "../llm/accounting.ts";
import { withUsageSink } from "../llm/accounting.ts";
import type { ChatModel } from "../llm/types.ts";
import { log } from "../util/log.ts";
import { askAnswerModel } from "./replay.ts";

export interface ModelStageOptions {
  answerer: ChatModel;
  protocol: Protocol;
  /** Where a record's answer calls are accounted. */
  usage(record: ProbeRecord): UsageSink;
  /** True when a record's call must not be started (its unit failed, the run is over --max-cost): it stays pending. */
  skip(record: ProbeRecord): boolean;
  /** A record's answer attempt ended (answered, or failed with its reason). */
  answered(record: ProbeRecord): void;
  /** Judges a record whose answer is in; its failures are the scoring's to report. */
  judge?(record: ProbeRecord): Promise<void>;
}

export class ModelStage {
  readonly #inFlight = new Set<Promise<void>>();

  constructor(private readonly options: ModelStageOptions) {}

  #track(work: Promise<void>): void {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
  }

  /** Asks `record`'s answer (then its judges) in the background. */
  ask(record: ProbeRecord, probe: Probe): void {
    const { answerer, protocol } = this.options;
    this.#track(
      (async () => {
        if (this.options.skip(record)) return;
        await withUsageSink(this.options.usage(record), () => askAnswerModel(answerer, protocol, probe, record));
        this.options.answered(record);
        await this.#judge(record);
      })().catch((error: unknown) => log.error(`answer ${record.unitId}/${record.probeId}: ${String(error)}`)),
    );
  }

  /** Judges a record whose answer needs no call (the system's own, or one asked earlier). */
  judge(record: ProbeRecord): void {
    this.#track(this.#judge(record));
  }

  async #judge(record: ProbeRecord): Promise<void> {
    if (!this.options.judge || this.options.skip(record)) return;
    try {
      await this.options.judge(record);
    } catch (error) {
      // The scoring that ends the run scores every record again and reports what fails.
      log.debug(`judging ${record.unitId}/${record.probeId} in the run failed: ${String(error)}`);
    }
  }

  /** Resolves once every answer and judge call started so far has ended. */
  async drain(): Promise<void> {
    while (this.#inFlight.size) await Promise.all([...this.#inFlight]);
  }
}
