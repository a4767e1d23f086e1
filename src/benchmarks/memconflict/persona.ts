/**
 * One line of the release (a persona with its `Full_Session_Chain`) → one
 * Episode: sessions in chain order with their dialogue turns, and each
 * session's questions as probes that fire right after it.
 */
import { DataError } from "../../core/errors.ts";
import type { EpisodeInput, ProbeInput, Session } from "../../core/model.ts";
import { isRecord } from "../shared/fields.ts";
import { parseLooseTime } from "../shared/time.ts";
import { parseDialogue } from "./dialogue.ts";
import { BENCHMARK_ID, FINAL_FILE, isOneOf, QUERY_STYLES, SESSION_TYPES } from "./format.ts";
import { Item, type Where } from "./item.ts";
import { pipelineStage } from "./pipeline.ts";
import { sessionProbes } from "./probes.ts";
import { isDistractor, readSessionRecords, type SessionRecords } from "./records.ts";
import type { Reporter } from "./reporter.ts";
import { attributeText, fieldLabel, valueText } from "./values.ts";

export interface Persona {
  episode: EpisodeInput;
  /** `line N (persona <ID>)`, for errors raised after the mapping. */
  record: string;
  /** Query styles of its probes. */
  styles: Set<string>;
}

/** The texts of a session's distractors, for `session.meta` (they are never evidence). */
function distractorsOf(r: SessionRecords): string[] {
  const who = (d: { relationship?: string; sourcePersonId?: string }) => d.relationship ?? d.sourcePersonId ?? "other";
  return [
    ...r.statics.filter(isDistractor).map((d) => `${who(d)}'s ${fieldLabel(d.fieldPath)}: ${valueText(d.value)}`),
    ...r.conditionals
      .filter(isDistractor)
      .map((d) => `${who(d)}'s ${fieldLabel(d.preferenceKey ?? "preference")}: ${valueText(d.preferenceDescription)}`),
    ...r.othersDynamic.map((d) => `${who(d)}'s ${fieldLabel(d.attribute)}: ${attributeText(d.attribute, d.value)}`),
  ];
}

function declaredCount(item: Item, field: string, actual: number, what: string, report: Reporter): number | undefined {
  const declared = item.optInt(field);
  if (declared !== undefined && declared !== actual) {
    report.issue(`declares ${declared} ${what} but holds ${actual}`, { ...item.where, field: item.field(field) });
  }
  return declared;
}

function personaStyle(persona: Item, report: Reporter): string {
  const meta = persona.rec.Question_Style_Metadata;
  if (!isRecord(meta) || typeof meta.Target_Style !== "string") return "direct";
  const style = QUERY_STYLES[meta.Target_Style];
  if (!style) {
    report.issue(`unknown Target_Style "${meta.Target_Style}"`, {
      ...persona.where,
      field: "Question_Style_Metadata.Target_Style",
    });
  }
  return style ?? meta.Target_Style;
}

export function personaToEpisode(value: unknown, file: string, line: number, report: Reporter): Persona {
  const lineWhere: Where = { file, record: `line ${line}` };
  const root = Item.of(value, "", lineWhere);
  const stage = pipelineStage(root.rec);
  if (stage) {
    const id = typeof root.rec.ID === "string" ? ` (persona ${root.rec.ID})` : "";
    throw new DataError(
      `this is an intermediate pipeline file (it looks like ${stage.stage} output), not the final release ${FINAL_FILE}`,
      { file, record: `${lineWhere.record}${id}`, field: stage.missing },
    );
  }
  const personaId = root.text("ID").trim();
  const where: Where = { file, record: `line ${line} (persona ${personaId})` };
  const persona = Item.of(value, "", where);
  const defaultStyle = personaStyle(persona, report);

  const chainItems = persona.reqList("Full_Session_Chain").map((v, i) => Item.of(v, `Full_Session_Chain[${i}]`, where));
  const ids = new Set<string>();
  const chain: SessionRecords[] = chainItems.map((s, index) => {
    const id = s.str("Session_ID").trim();
    if (ids.has(id)) s.fail("Session_ID", `duplicate Session_ID "${id}"`);
    ids.add(id);
    const type = s.str("Session_Type").trim();
    if (!isOneOf(SESSION_TYPES, type)) {
      report.issue(`unknown Session_Type "${type}"`, { ...where, field: s.field("Session_Type") });
    }
    return readSessionRecords(s, id, index, type, report);
  });

  const styles = new Set<string>();
  const sessions: Session[] = [];
  const probes: ProbeInput[] = [];
  let questionTotal = 0;
  let triggered = 0;
  for (const [index, s] of chainItems.entries()) {
    const records = chain[index] as SessionRecords;
    const date = s.str("Date");
    const time = parseLooseTime(date);
    if (!time) report.issue(`cannot read the date "${date}"`, { ...where, field: s.field("Date") });
    const dialogue = parseDialogue(
      s.has("Session_Dialogue"),
      records.id,
      { ...where, field: s.field("Session_Dialogue") },
      report,
    );
    if (!dialogue.turns.length) {
      report.warn(`session ${records.id} has no dialogue messages`, { ...where, field: s.field("Session_Dialogue") });
    }
    s.reqList("Session_Questions");
    const sessionProbeList = sessionProbes({ personaId, session: s, records, chain, time, defaultStyle }, report);
    for (const p of sessionProbeList) styles.add(p.labels?.query_style ?? defaultStyle);
    probes.push(...sessionProbeList);
    questionTotal += sessionProbeList.length;
    // Upstream counts a session as triggered when it found trigger records, even if no question survived.
    const triggerTypes = s.list("Question_Trigger_Types");
    if ("Question_Trigger_Types" in s.rec ? triggerTypes.length > 0 : sessionProbeList.length > 0) triggered++;
    const distractors = distractorsOf(records);
    sessions.push({
      id: records.id,
      index,
      ...(time ? { time } : {}),
      turns: dialogue.turns,
      meta: {
        sessionType: records.type,
        eventTypes: s.list("Event_Types"),
        outline: s.optStr("Session_Outline"),
        questionTriggerTypes: triggerTypes,
        questionCount: declaredCount(s, "Session_Question_Count", sessionProbeList.length, "questions", report),
        tokenLength: s.optInt("Session_Dialogue_Token_Length"),
        revealedAttributes: records.revealed,
        updatedAttributes: records.updates,
        staticConflicts: records.statics,
        conditionalConflicts: records.conditionals,
        othersDynamic: records.othersDynamic,
        hasDistractor: distractors.length > 0,
        distractors,
        messageCount: dialogue.messageCount,
        dialogueQuirks: dialogue.quirks,
      },
    });
  }

  const fixed = persona.rec.Fixed_Profile;
  const metadata = persona.rec.metadata;
  return {
    record: where.record,
    styles,
    episode: {
      id: personaId,
      benchmark: BENCHMARK_ID,
      sessions,
      probes,
      meta: {
        line,
        name: isRecord(fixed) && typeof fixed.Name === "string" ? fixed.Name : undefined,
        personaSeed: isRecord(metadata) ? metadata.persona_seed : undefined,
        fixedProfile: fixed,
        dynamicProfile: persona.rec.Dynamic_Profile,
        preferenceProfile: persona.rec.Preference_Profile,
        personality: persona.rec.Personality,
        lifeGoal: persona.rec.Life_Goal,
        othersProfile: persona.rec.Others_Profile,
        totalDialogueTokens: persona.optInt("Total_Dialogue_Token_Length"),
        validSessionDialogueCount: persona.optInt("Valid_Session_Dialogue_Count"),
        totalQuestionCount: declaredCount(persona, "Total_Session_Question_Count", questionTotal, "questions", report),
        triggeredSessionCount: declaredCount(
          persona,
          "Triggered_Session_Count",
          triggered,
          "triggered sessions",
          report,
        ),
      },
    },
  };
}
