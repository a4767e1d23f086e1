/**
 * The per-timeline simulator configuration of Memora's generator: how often
 * each memory category comes up (a range drawn per day, week or month) and the
 * weights of its operations. Values follow the released generator's
 * `memory_config_<timeline>.json` (geniesinc/Memora@a6493188, `data_generation/`;
 * arXiv 2604.20006 App. A); the day counts are the release's (7, 28 and 92
 * days from 2025-06-01).
 */
import type { Duration } from "../../benchmarks/memora/labels.ts";
import type { DocumentType } from "./documents.ts";

export type Period = "day" | "week" | "month";
export type Operation = "add" | "update" | "delete";
export type OpWeights = Readonly<Record<Operation, number>>;

export interface Frequency {
  per: Period;
  range: readonly [number, number];
}

export interface CategoryRule {
  freq: Frequency;
  ops: OpWeights;
}

export interface ContentRule extends CategoryRule {
  /** Field edits per update / delete session. */
  updateIntensity: readonly [number, number];
  deleteIntensity: readonly [number, number];
  /** Edit sessions (updates, deletes) a document takes before it is complete. */
  completion: readonly [number, number];
}

export interface TimelineConfig {
  days: number;
  preferences: Readonly<Record<"movies" | "books" | "music" | "travel", CategoryRule>>;
  /** Per meal per day; grocery per week. Add only. */
  meals: Readonly<Record<"breakfast" | "lunch" | "dinner" | "coffee", Frequency>>;
  grocery: Frequency;
  steps: Frequency;
  todos: CategoryRule;
  calendar: CategoryRule;
  content: Readonly<Record<DocumentType, ContentRule>>;
  foodGoals: Frequency;
  stepGoals: Frequency;
  noMemory: Frequency;
}

const ADD_ONLY: OpWeights = { add: 1, update: 0, delete: 0 };
const w = (add: number, update: number, del: number): OpWeights => ({ add, update, delete: del });
const per = (p: Period, lo: number, hi: number): Frequency => ({ per: p, range: [lo, hi] });

const MEALS = {
  breakfast: per("day", 0, 1),
  lunch: per("day", 0, 1),
  dinner: per("day", 0, 1),
  coffee: per("day", 1, 2),
} as const;

function content(
  freq: Frequency,
  ops: OpWeights,
  updateIntensity: readonly [number, number],
  deleteIntensity: readonly [number, number],
  completion: readonly [number, number],
): ContentRule {
  return { freq, ops, updateIntensity, deleteIntensity, completion };
}

const WEEKLY: TimelineConfig = {
  days: 7,
  preferences: {
    movies: { freq: per("week", 6, 8), ops: w(0.3, 0.4, 0.3) },
    books: { freq: per("week", 6, 8), ops: w(0.3, 0.4, 0.3) },
    music: { freq: per("week", 6, 8), ops: w(0.3, 0.4, 0.3) },
    travel: { freq: per("month", 10, 12), ops: w(0.3, 0.4, 0.3) },
  },
  meals: MEALS,
  grocery: per("week", 1, 2),
  steps: per("day", 1, 1),
  todos: { freq: per("day", 2, 4), ops: w(0.5, 0, 0.5) },
  calendar: { freq: per("week", 3, 4), ops: w(0.4, 0.4, 0.2) },
  content: {
    project_proposal: content(per("week", 6, 8), w(0.2, 0.4, 0.4), [1, 4], [1, 3], [3, 4]),
    email_writeup: content(per("week", 6, 8), w(0.2, 0.4, 0.4), [1, 3], [1, 2], [1, 3]),
    meeting_notes: content(per("week", 6, 8), w(0.2, 0.4, 0.4), [1, 3], [1, 3], [1, 3]),
    social_media_post: content(per("week", 1, 2), ADD_ONLY, [1, 1], [1, 1], [1, 1]),
  },
  foodGoals: per("week", 1, 3),
  stepGoals: per("week", 1, 1),
  noMemory: per("day", 5, 8),
};

const MONTHLY: TimelineConfig = {
  ...WEEKLY,
  days: 28,
  preferences: {
    movies: { freq: per("week", 4, 6), ops: w(0.3, 0.4, 0.3) },
    books: { freq: per("week", 4, 6), ops: w(0.3, 0.4, 0.3) },
    music: { freq: per("week", 4, 6), ops: w(0.3, 0.4, 0.3) },
    travel: { freq: per("month", 10, 12), ops: w(0.3, 0.4, 0.3) },
  },
  calendar: { freq: per("week", 2, 3), ops: w(0.4, 0.4, 0.2) },
  content: {
    project_proposal: content(per("week", 6, 8), w(0.2, 0.4, 0.4), [1, 4], [1, 3], [3, 4]),
    email_writeup: content(per("week", 6, 8), w(0.2, 0.4, 0.4), [1, 4], [1, 2], [1, 2]),
    meeting_notes: content(per("week", 6, 8), w(0.2, 0.4, 0.4), [1, 3], [1, 3], [1, 2]),
    social_media_post: content(per("week", 1, 5), ADD_ONLY, [1, 1], [1, 1], [1, 1]),
  },
  noMemory: per("day", 4, 6),
};

const QUARTERLY: TimelineConfig = {
  ...WEEKLY,
  days: 92,
  preferences: {
    movies: { freq: per("week", 10, 12), ops: w(0.4, 0.3, 0.3) },
    books: { freq: per("week", 8, 9), ops: w(0.4, 0.3, 0.3) },
    music: { freq: per("week", 10, 12), ops: w(0.3, 0.4, 0.3) },
    travel: { freq: per("month", 10, 12), ops: w(0.5, 0.4, 0.1) },
  },
  calendar: { freq: per("week", 1, 2), ops: w(0.5, 0.3, 0.2) },
  content: {
    project_proposal: content(per("week", 12, 15), w(0.4, 0.3, 0.3), [1, 4], [1, 3], [3, 4]),
    email_writeup: content(per("week", 12, 15), w(0.4, 0.3, 0.3), [1, 4], [1, 2], [1, 2]),
    meeting_notes: content(per("week", 12, 15), w(0.4, 0.3, 0.3), [1, 3], [1, 3], [1, 2]),
    social_media_post: content(per("week", 1, 8), ADD_ONLY, [1, 1], [1, 1], [1, 1]),
  },
  noMemory: per("day", 1, 3),
};

export const TIMELINES: Readonly<Record<Duration, TimelineConfig>> = {
  weekly: WEEKLY,
  monthly: MONTHLY,
  quarterly: QUARTERLY,
};

/** Questions per task in the release: 5 for weekly and monthly, 10 for quarterly. */
export const QUESTIONS_PER_TASK: Readonly<Record<Duration, number>> = { weekly: 5, monthly: 5, quarterly: 10 };

/** Probability that a preference update flips like ↔ dislike rather than replacing the item (the simulator's 0.3). */
export const FLIP_SHARE = 0.3;
