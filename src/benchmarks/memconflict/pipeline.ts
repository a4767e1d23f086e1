/**
 * Recognises the intermediate files of the construction pipeline
 * (`Data/Step1_1.jsonl` … `Step4_3.jsonl`, written by `Code/Step1_*` … `Step4_3.py`), which share the persona
 * line shape with the release but lack its dialogues or questions. Loading
 * them as episodes would give sessions with no turns or no probes, so the
 * loader refuses them with a message saying which stage the file looks like.
 */
import { isRecord, type Rec } from "../shared/fields.ts";

export interface PipelineStage {
  /** The stage the record looks like, e.g. `Step2_x`. */
  stage: string;
  /** The release field it lacks. */
  missing: string;
}

function sessions(record: Rec): Rec[] {
  const chain = record.Full_Session_Chain;
  return Array.isArray(chain) ? chain.filter(isRecord) : [];
}

/** The pipeline stage `record` comes from, or undefined when it looks like the release. */
export function pipelineStage(record: Rec): PipelineStage | undefined {
  if (!("Full_Session_Chain" in record)) {
    if ("Timeline_Sessions" in record || "Timeline_Initial_State" in record) {
      return { stage: "Step2_x (timeline)", missing: "Full_Session_Chain" };
    }
    if ("Fixed_Profile" in record || "Dynamic_Profile" in record || "Others_Profile" in record) {
      return { stage: "Step1_x (profile)", missing: "Full_Session_Chain" };
    }
    return undefined;
  }
  const chain = sessions(record);
  if (!chain.length) return undefined;
  if (!chain.some((s) => "Session_Dialogue" in s)) {
    const outlined = chain.some((s) => "Session_Outline" in s);
    return {
      stage: outlined ? "Step4_1 (outlines)" : "Step3_x (conflict injection)",
      missing: "Full_Session_Chain[].Session_Dialogue",
    };
  }
  if (!chain.some((s) => "Session_Questions" in s)) {
    const counted = chain.some((s) => "Session_Dialogue_Token_Length" in s);
    return {
      stage: counted ? "Step4_3 (token counts)" : "Step4_2 (dialogues)",
      missing: "Full_Session_Chain[].Session_Questions",
    };
  }
  return undefined;
}
