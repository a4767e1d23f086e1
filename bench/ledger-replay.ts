/**
 * One ledger system replayed over prepared episodes exactly as the runner does
 * (`replayUnit`: ingest in timeline order, each probe asked at its place), then
 * summarised to the row the bench tables read. Shared by the tuning and
 * ceiling scripts.
 */

import type { Protocol } from "../src/benchmarks/shared/protocol.ts";
import type { Episode } from "../src/core/model.ts";
import type { ProbeRecord } from "../src/core/record.ts";
import { replayUnit } from "../src/run/replay.ts";
import { type ResultRow, summarise } from "../src/run/summary.ts";
import type { LedgerSystem } from "../src/systems/ledger.ts";

export async function replayLedger(
  system: LedgerSystem,
  episodes: readonly Episode[],
  protocol: Protocol,
  run: { benchmark: string; data: string },
): Promise<ResultRow | undefined> {
  const records = await replayLedgerRecords(system, episodes, protocol);
  return summarise(run, records, [], ["ledger"], ["default"]).results[0];
}

/** The probe records of the replay, for summaries of part of the probes (bench/ledger-halves.ts). */
export async function replayLedgerRecords(
  system: LedgerSystem,
  episodes: readonly Episode[],
  protocol: Protocol,
): Promise<ProbeRecord[]> {
  const records: ProbeRecord[] = [];
  try {
    for (const episode of episodes) {
      const unitId = `ledger:${episode.id}`;
      const r = await replayUnit({ unitId, systemId: "ledger", system, episode, protocol, settings: ["default"] });
      records.push(...r.records);
    }
  } finally {
    system.ledger.close();
  }
  return records;
}
