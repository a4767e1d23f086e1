/**
 * RealMem's label vocabulary. The released files use the generator's names,
 * which differ from the paper's tables (arXiv 2601.06966 App. A.1, Tables 7–8); reports use
 * the paper's names, so the mapping lives here and nowhere else.
 */

/** `category_name` in the data → the paper's query type. */
export const CATEGORY_NAMES: Readonly<Record<string, string>> = {
  "Dynamic Incremental": "Static Retrieval",
  "Dynamic Updating": "Dynamic Updating",
  "Implicit Preference": "Proactive Alignment",
  "Temporal-reasoning": "Temporal Reasoning",
};

/** `session_type` in the data → our label value. */
export const SESSION_TYPES: Readonly<Record<string, string>> = {
  single_session: "single-session",
  multi_session: "multi-session",
};

/** `topic` in the data → the paper's scenario name (Table 8). */
export const TOPIC_NAMES: Readonly<Record<string, string>> = {
  Academic_Writing: "Academic Writing",
  Career_Development: "Career Development",
  Code_Architecture_Design: "Code Architecture Design",
  Financial_Planning: "Financial Planning",
  Fitness: "Fitness",
  Health_Consultation: "Health Consultation",
  Knowledge_Learning: "Knowledge Learning",
  Literary_Creation: "Literary Creation",
  Mental_Health_Support: "Mental Health Support",
  Project_Management: "Project Management",
  Travel_Planning: "Travel Planning",
};

/** Memory `type` in the data → the paper's memory type (arXiv 2601.06966 App. A.1.2). */
export const MEMORY_TYPES: Readonly<Record<string, string>> = {
  Dynamic: "Project State",
  Static: "Persona",
  Schedule: "Schedule",
};

/** The project name of the distractor sessions the release pads each timeline with. */
export const FILLER_PROJECT = "Enhanced";

/**
 * Gold memories from exactly one distinct session make a single-session query,
 * from two or more a multi-session one (checked on all 1,415 queries of the release).
 */
export function sessionTypeOf(evidenceSessions: number): string | undefined {
  if (evidenceSessions === 1) return "single-session";
  if (evidenceSessions >= 2) return "multi-session";
  return undefined;
}

export interface SessionIdentifier {
  /** `Mental_Health_Support_421`, or `Enhanced` for filler. */
  project: string;
  /** `S1_01`; the step inside the project. */
  step?: string;
  /** The project's topic in the data's spelling (`Mental_Health_Support`); absent for filler. */
  topic?: string;
  filler: boolean;
}

/** Splits `<Topic>_<taskId>:S<event>_<seq>` (or `Enhanced:S10063`) into its parts. */
export function parseSessionIdentifier(identifier: string): SessionIdentifier {
  const colon = identifier.indexOf(":");
  const project = colon < 0 ? identifier : identifier.slice(0, colon);
  const step = colon < 0 ? undefined : identifier.slice(colon + 1);
  const filler = project === FILLER_PROJECT;
  const topic = filler ? undefined : project.replace(/_\d+$/, "");
  return { project, step, topic, filler };
}
