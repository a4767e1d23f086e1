/** How turns and times are written for services that take plain text and timestamps. */
import { normaliseTime } from "../../ledger/ids.ts";
import type { IngestBatch, IngestTurn } from "../types.ts";

export function turnLine(turn: IngestTurn): string {
  return `${turn.speaker ?? turn.role}: ${turn.content}`;
}

/** The time of a turn: its own, else its session's; never the wall clock. */
export function turnTime(turn: IngestTurn, batch: IngestBatch): string | undefined {
  return turn.time ?? batch.time;
}

/**
 * An ISO 8601 instant for a benchmark time string (ISO, or the releases' own forms
 * such as LoCoMo's "1:56 pm on 8 May, 2023"), or undefined when it cannot be read.
 */
export function isoTime(time: string | undefined): string | undefined {
  return normaliseTime(time);
}

/** Seconds since the epoch, for services that take Unix timestamps. */
export function unixSeconds(time: string | undefined): number | undefined {
  const iso = isoTime(time);
  return iso === undefined ? undefined : Math.floor(Date.parse(iso) / 1000);
}

/** Ranked results without a score of their own get 1/(rank+1): non-increasing, finite. */
export function rankScore(index: number): number {
  return 1 / (index + 1);
}
