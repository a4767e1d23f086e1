/**
 * The synthetic history of the conformance kit: four unrelated sessions, each with
 * one invented word (its marker) that appears nowhere else, so any result can be
 * traced to the session it came from by its text alone, provenance or not.
 */
import type { IngestBatch } from "./types.ts";

export interface ConformanceSession {
  batch: IngestBatch;
  /** Lowercase word found only in this session. */
  marker: string;
  /** A query this session answers. */
  query: string;
}

function session(
  n: number,
  time: string,
  marker: string,
  query: string,
  lines: [string, string, string],
): ConformanceSession {
  const sessionId = `conf-s${n}`;
  const roles = ["user", "assistant", "user"] as const;
  return {
    batch: {
      sessionId,
      sessionIndex: n - 1,
      time,
      turns: lines.map((content, i) => ({ id: `${sessionId}-t${i + 1}`, role: roles[i]!, content })),
    },
    marker,
    query,
  };
}

export const CONFORMANCE_HISTORY: readonly ConformanceSession[] = [
  session(1, "2024-01-05T09:00:00Z", "zephyrine", "What did I name the greyhound, Zephyrine?", [
    "I adopted a retired greyhound last weekend and named her Zephyrine.",
    "Zephyrine is a lovely name for a greyhound. How is she settling in?",
    "She sleeps on the sofa all day and ignores the neighbour's cat.",
  ]),
  session(2, "2024-02-11T18:30:00Z", "kalambra", "Where does my sister Kalambra work as a glassblower?", [
    "My sister Kalambra works as a glassblower in a workshop by the harbour.",
    "A glassblower! Does Kalambra make vases or ornaments?",
    "Mostly blue ornaments; she sells them at the winter market.",
  ]),
  session(3, "2024-03-20T20:15:00Z", "obrundel", "Who teaches my theremin lessons, Obrundel?", [
    "I started theremin lessons with a teacher called Obrundel.",
    "The theremin is hard to play in tune. How are the lessons with Obrundel going?",
    "Slowly; I practise scales every evening after dinner.",
  ]),
  session(4, "2024-04-02T07:45:00Z", "vestrikk", "When is the hike across the Vestrikk glacier?", [
    "We are planning a hike across the Vestrikk glacier in March next year.",
    "The Vestrikk glacier will need crampons and a guide in March.",
    "We already booked a guide from the mountain hut.",
  ]),
];
