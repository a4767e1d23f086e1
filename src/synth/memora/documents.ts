/**
 * Work documents (content memory): project proposals, email write-ups,
 * meeting notes and social media posts, with the field schemas of the
 * release's `operation_details.content_data`. Each document is built from the
 * persona's work vocabulary; its list fields carry more items than it starts
 * with, so update sessions have something to add.
 */
import type { Rng } from "../rng.ts";
import type { Persona } from "./catalogue.ts";

export const DOCUMENT_TYPES = ["project_proposal", "email_writeup", "meeting_notes", "social_media_post"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export type FieldValue = string | number | string[];

export interface DocumentSeed {
  type: DocumentType;
  /** `project_proposal_1`: the release's item id. */
  id: string;
  /** Field order as written; scalars and lists. */
  fields: Record<string, FieldValue>;
  /** Items of each list field that are held back for later update sessions. */
  reserve: Record<string, string[]>;
}

/** The field whose value names the document in its question (`Write a project proposal for '<title>'`). */
export const TITLE_FIELD: Readonly<Record<DocumentType, string>> = {
  project_proposal: "project_title",
  email_writeup: "email_purpose",
  meeting_notes: "meeting_title",
  social_media_post: "main_message",
};

const ADJECTIVES = ["Real-Time", "Scalable", "Unified", "Next-Generation", "Resilient", "Automated", "Data-Driven"];
const NOUNS = ["Modernization", "Platform", "Initiative", "Overhaul", "Programme", "Pilot", "Roadmap"];
const DELIVERABLES = [
  "Technical design document",
  "Pilot rollout plan",
  "Monitoring dashboard",
  "Training materials for the wider team",
  "Migration runbook",
  "Final evaluation report",
  "Stakeholder communication plan",
];
const RESOURCES = [
  "Two additional specialists for six months",
  "A dedicated test environment",
  "External review budget",
  "Analytics tooling licences",
  "Weekly access to the leadership sponsor",
];
const ACTIONS = ["reduce", "improve", "stabilise", "track", "double-check"];
const CTAS = [
  "Please reply with your comments by Friday.",
  "Let me know by Wednesday whether you can join the review.",
  "Send your sign-off before the end of the week.",
  "Flag any blockers to me before our next check-in.",
];
const PURPOSES = [
  "Share the latest findings on the",
  "Summarise the open questions about the",
  "Report progress on the",
  "Propose changes to the",
];
const MEETING_KINDS = ["Kick-off", "Check-in", "Review", "Planning", "Retrospective", "Deep Dive", "Status Sync"];
const PLATFORMS = ["LinkedIn", "X", "Instagram", "Mastodon"];
const POST_TYPES = ["Team Milestone Post", "Technical Insight Post", "Event Announcement", "Behind-the-Scenes Post"];

/** The k-th name of a list, numbered once the list runs out (`Review`, …, `Review 2`), so titles never repeat. */
const nth = (names: readonly string[], k: number) =>
  `${names[k % names.length]}${k >= names.length ? ` ${Math.floor(k / names.length) + 1}` : ""}`;
const cap = (s: string) => s.replace(/(^|\s)([a-z])/g, (_m, sp: string, c: string) => sp + c.toUpperCase());
const tag = (s: string) => `#${cap(s).replace(/[^A-Za-z0-9]/g, "")}`;

function objectives(p: Persona, system: string, rng: Rng): string[] {
  return rng
    .shuffle(p.work.metrics)
    .map((m, i) => `${cap(ACTIONS[i % ACTIONS.length] as string)} ${m} for the ${system} by ${rng.int(10, 45)}%`);
}

function proposal(p: Persona, n: number, rng: Rng): DocumentSeed {
  const system = p.work.systems[(n - 1) % p.work.systems.length] as string;
  const months = rng.int(6, 18);
  const lead = rng.pick(p.work.colleagues);
  const stakeholders = rng.shuffle(p.work.stakeholders);
  const goals = objectives(p, system, rng);
  const deliverables = rng.shuffle(DELIVERABLES).map((d) => `${d} for the ${system}`);
  const metrics = rng.shuffle(p.work.metrics).map((m) => `${cap(m)} reported monthly against the baseline`);
  return {
    type: "project_proposal",
    id: `project_proposal_${n}`,
    fields: {
      project_title: `${nth(ADJECTIVES, Math.floor((n - 1) / p.work.systems.length))} ${cap(system)} ${NOUNS[(n - 1) % NOUNS.length]}`,
      project_description: `A ${months}-month effort to rebuild the ${system} so that the ${(stakeholders[0] as string).toLowerCase()} get results faster and with fewer manual steps.`,
      budget: rng.int(10, 180) * 5000,
      timeline: `${months} months in three phases: discovery, build and rollout`,
      project_lead: `${lead}, ${p.title}`,
      stakeholders: stakeholders.slice(0, 2),
      objectives: goals.slice(0, 2),
      deliverables: deliverables.slice(0, 2),
    },
    reserve: {
      stakeholders: stakeholders.slice(2),
      objectives: goals.slice(2),
      deliverables: deliverables.slice(2, 5),
      success_metrics: metrics.slice(0, 3),
      resources_needed: rng.sample(RESOURCES, 3),
    },
  };
}

function email(p: Persona, n: number, rng: Rng): DocumentSeed {
  const system = p.work.systems[(n + 1) % p.work.systems.length] as string;
  const round = Math.floor((n - 1) / p.work.systems.length);
  const metric = p.work.metrics[round % p.work.metrics.length] as string;
  const people = rng.shuffle([...p.work.stakeholders, ...rng.sample(p.work.colleagues, 2)]);
  const points = rng.shuffle([
    `The ${system} review found that ${metric} moved by ${rng.int(5, 40)}% since last quarter`,
    `${rng.pick(p.work.colleagues)} will own the next phase of the ${system} work`,
    `We need a decision on the ${system} budget before the next planning cycle`,
    `Two open risks remain on the ${system}: staffing and vendor timelines`,
    `A pilot of the ${system} changes starts with one team next month`,
    `Feedback from the last demo asked for clearer ${metric} reporting`,
  ]);
  return {
    type: "email_writeup",
    id: `email_writeup_${n}`,
    fields: {
      email_purpose: `${nth(PURPOSES, Math.floor(round / p.work.metrics.length))} ${system} and agree on next steps for ${metric}`,
      recipient_list: people.slice(0, 2),
      key_points: points.slice(0, 2),
      call_to_action: rng.pick(CTAS),
    },
    reserve: { recipient_list: people.slice(2, 4), key_points: points.slice(2) },
  };
}

function notes(p: Persona, n: number, rng: Rng): DocumentSeed {
  const system = p.work.systems[(n + 2) % p.work.systems.length] as string;
  const meeting = p.work.meetings[(n - 1) % p.work.meetings.length] as string;
  const metrics = rng.shuffle(p.work.metrics);
  const people = rng.shuffle(p.work.colleagues);
  const agenda = [
    `Review ${metrics[0]} trends for the ${system}`,
    `Discuss open risks on the ${system}`,
    `Agree on owners for the ${system} follow-ups`,
    `Plan the next ${system} milestone`,
    `Walk through feedback on ${metrics[1]}`,
  ];
  const decisions = [
    `Prioritise ${metrics[0]} work ahead of new features on the ${system}`,
    `Move the ${system} review to a fortnightly rhythm`,
    `Keep the current vendor for the ${system} until the pilot ends`,
    `Publish ${metrics[1]} figures to the whole team each month`,
  ];
  const actions = people
    .slice(0, 4)
    .map(
      (who, i) =>
        `${who} to ${["draft", "check", "share", "update"][i]} the ${system} ${["plan", "numbers", "summary", "tracker"][i]} within ${rng.int(2, 14)} days`,
    );
  return {
    type: "meeting_notes",
    id: `meeting_notes_${n}`,
    fields: {
      meeting_title: `${meeting}: ${cap(system)} ${nth(MEETING_KINDS, Math.floor((n - 1) / p.work.systems.length))}`,
      agenda_items: agenda.slice(0, 2),
      key_decisions: decisions.slice(0, 2),
    },
    reserve: { agenda_items: agenda.slice(2), key_decisions: decisions.slice(2), action_items: actions },
  };
}

function post(p: Persona, n: number, rng: Rng): DocumentSeed {
  const system = p.work.systems[(n + 3) % p.work.systems.length] as string;
  return {
    type: "social_media_post",
    id: `social_media_post_${n}`,
    fields: {
      platform: rng.pick(PLATFORMS),
      content_type: rng.pick(POST_TYPES),
      main_message: `Proud of the team: the ${system} work just cleared its ${["first", "second", "third", "final"][n % 4]} milestone, and ${rng.pick(p.work.metrics)} is already improving.`,
      hashtags: [tag(system), tag(p.title), tag(rng.pick(p.work.metrics))],
    },
    reserve: {},
  };
}

const BUILDERS: Readonly<Record<DocumentType, (p: Persona, n: number, rng: Rng) => DocumentSeed>> = {
  project_proposal: proposal,
  email_writeup: email,
  meeting_notes: notes,
  social_media_post: post,
};

/** The pool of `count` documents of one type for a persona and timeline. */
export function documentPool(type: DocumentType, persona: Persona, count: number, rng: Rng): DocumentSeed[] {
  return Array.from({ length: count }, (_, i) => BUILDERS[type](persona, i + 1, rng.fork(i + 1)));
}

/** A field name as the question and the dialogue say it (`project_title` → `project title`). */
export function fieldLabel(field: string): string {
  return field.replace(/_/g, " ");
}

/** The text of a field value (lists joined with ", "). */
export function fieldText(value: FieldValue): string {
  return Array.isArray(value) ? value.join(", ") : String(value);
}
