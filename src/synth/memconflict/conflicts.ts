/**
 * Conflict injection (paper §3.3.3–3.3.5; upstream Step3_1, Step3_2, Step3_3):
 * - static: a true fixed fact at Point_A in the first `pointAWindow` sessions,
 *   a false one (explicit or implicit, about half each) at Point_B at least
 *   `staticMinGap` sessions later, preferably in a chitchat session, never in
 *   the last session; the fact is not mentioned in between (each conflict has
 *   its own path); a distractor about another person with the same field
 *   strictly between the two;
 * - conditional: one group per preference type, its items as Point_A, B, C…
 *   in increasing sessions at least `conditionalMinGap` apart (relaxed when the
 *   chain is too short), with 0–2 distractors from other people's hobbies
 *   between Point_A and the last point;
 * - dynamic distractors: for each attribute with two or more true points, one
 *   other person's value in every gap between consecutive points, different
 *   from both neighbours, in an unused chitchat session of the gap if any.
 * With `distance` set (the conflict-distance ablation), Point_B (static) and
 * each later point (conditional) are placed that many sessions after the
 * point they answer, when the chain allows it.
 */
import type { Rng } from "../rng.ts";
import type { Json, OthersDynamicRecord, Persona, Rec, Session, StaticRecord, UpdateAttribute } from "./model.ts";
import type { Pools } from "./pools.ts";
import {
  candidatePaths,
  explicitClaim,
  factLine,
  implicitClaim,
  otherFactLine,
  otherValueAt,
  truthAt,
} from "./statics.ts";

export interface ConflictKnobs {
  staticConflicts: number;
  staticMinGap: number;
  pointAWindow: number;
  implicitShare: number;
  conditionalMinGap: number;
  conditionalDistractors: number;
  distractors: boolean;
  /** Sessions between a point and the one answering it, for the distance ablation. */
  distance?: [number, number];
}

const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(3, "0")}`;
const ROLE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const pointRole = (i: number) => `Point_${ROLE_LETTERS[i]}`;

/** Sessions that may receive conflict information: all but the last (paper: never the final session). */
function usable(chain: Session[]): number[] {
  return chain.slice(0, -1).map((s) => s.Session_ID);
}

/** A session in [lo, hi], chitchat preferred, or undefined when the range is empty. */
function pickIn(rng: Rng, chain: Session[], lo: number, hi: number, prefer = true): number | undefined {
  const ids = usable(chain).filter((i) => i >= lo && i <= hi);
  if (!ids.length) return undefined;
  const chit = ids.filter((i) => chain[i]?.Session_Type === "chitchat");
  return rng.pick(prefer && chit.length ? chit : ids);
}

function textOf(value: Json | undefined): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Another person's value at a static path that differs from both the truth and the claim. */
function staticDistractor(
  rng: Rng,
  persona: Persona,
  path: string,
  avoid: Json[],
): { key: string; person: Rec; value: Json } | undefined {
  const options = Object.entries(persona.profile.Others_Profile)
    .map(([key, person]) => ({ key, person, value: otherValueAt(person, path) }))
    .filter((o): o is { key: string; person: Rec; value: Json } => o.value !== undefined && o.value !== null)
    .filter((o) => !avoid.some((a) => textOf(a) === textOf(o.value)));
  return options.length ? rng.pick(options) : undefined;
}

export function injectStatic(rng: Rng, pools: Pools, persona: Persona, knobs: ConflictKnobs): void {
  const { chain, profile } = persona;
  const fixed = profile.Fixed_Profile;
  const last = usable(chain).at(-1) ?? 0;
  const paths = rng.sample(candidatePaths(fixed), knobs.staticConflicts);
  const nImplicit = Math.round(paths.length * knobs.implicitShare);
  const styles = rng.shuffle(paths.map((_, i) => (i < nImplicit ? "Implicit" : "Explicit")));
  paths.forEach((path, i) => {
    const crng = rng.fork(path);
    const conflictId = id("SC", i + 1);
    const truth = truthAt(fixed, path);
    const a = crng.int(0, Math.min(knobs.pointAWindow - 1, Math.max(0, last - 1)));
    const [d0, d1] = knobs.distance ?? [knobs.staticMinGap, last];
    let b = pickIn(crng, chain, a + d0, Math.min(a + d1, last));
    // Relax: the chain is shorter than the gap asks; keep B as late as possible, after A.
    b ??= pickIn(crng, chain, a + 1, last);
    if (b === undefined) return;
    const claim =
      styles[i] === "Implicit"
        ? implicitClaim(crng, pools, fixed, path, truth)
        : (() => {
            const value = explicitClaim(crng, pools, fixed, path, truth);
            return { value, line: factLine(fixed, path, value) };
          })();
    const pointA: StaticRecord = { Conflict_ID: conflictId, Role: "Point_A", Target_Field_Path: path, Value: truth };
    const pointB: StaticRecord = {
      Conflict_ID: conflictId,
      Role: "Point_B",
      Target_Field_Path: path,
      Value: claim.value,
    };
    chain[a]?.Static_Conflict_Information.push(pointA);
    chain[b]?.Static_Conflict_Information.push(pointB);
    persona.staticLines.set(`${conflictId}/Point_A`, factLine(fixed, path, truth));
    persona.staticLines.set(`${conflictId}/Point_B`, claim.line);
    if (!knobs.distractors) return;
    const other = staticDistractor(crng, persona, path, [truth, claim.value]);
    const at = pickIn(crng, chain, a + 1, b - 1);
    if (!other || at === undefined) return;
    const relationship = String(other.person.Relationship_To_User);
    chain[at]?.Static_Conflict_Information.push({
      Conflict_ID: conflictId,
      Role: "Distractor",
      Source_Person_ID: other.key,
      Relationship_To_User: relationship,
      Target_Field_Path: path,
      Value: other.value,
    });
    persona.staticLines.set(
      `${conflictId}/Distractor`,
      otherFactLine(relationship, String(other.person.Name), path, other.value),
    );
  });
  for (const s of chain) s.Static_Conflict_Information.sort(byConflictThenRole);
}

function byConflictThenRole(x: Rec, y: Rec): number {
  return String(x.Conflict_ID).localeCompare(String(y.Conflict_ID)) || String(x.Role).localeCompare(String(y.Role));
}

/** Session positions for `n` points after `first`, increasing, `gap` apart where the chain allows. */
function pointPositions(
  rng: Rng,
  first: number,
  n: number,
  last: number,
  gap: number,
  distance?: [number, number],
): number[] {
  const positions = [first];
  for (let i = 1; i < n; i++) {
    const prev = positions[i - 1] as number;
    const remaining = n - 1 - i;
    if (distance) {
      const next = prev + rng.int(distance[0], distance[1]);
      positions.push(Math.min(next, last - remaining));
      continue;
    }
    let g = gap;
    // Relax the gap when the rest of the chain cannot hold the remaining points.
    while (g > 1 && prev + g * (remaining + 1) > last) g--;
    const lo = prev + g;
    const hi = Math.min(Math.max(lo, last - g * remaining), last);
    // Past the end of the chain: the point is dropped below.
    positions.push(lo <= hi ? rng.int(lo, hi) : lo);
  }
  // Points must stay distinct and increasing even after clipping.
  for (let i = 1; i < positions.length; i++) {
    if ((positions[i] as number) <= (positions[i - 1] as number)) positions[i] = (positions[i - 1] as number) + 1;
  }
  return positions.filter((p) => p <= last);
}

export function injectConditional(rng: Rng, persona: Persona, knobs: ConflictKnobs): void {
  const { chain, profile } = persona;
  const last = usable(chain).at(-1) ?? 0;
  Object.entries(profile.Preference_Profile).forEach(([type, rules], g) => {
    const grng = rng.fork(type);
    const conflictId = id("CC", g + 1);
    const items = Object.entries(rules);
    const first = grng.int(0, Math.min(knobs.pointAWindow - 1, last));
    const positions = pointPositions(grng, first, items.length, last, knobs.conditionalMinGap, knobs.distance);
    positions.forEach((at, i) => {
      const [item, condition] = items[i] as [string, string];
      chain[at]?.Conditional_Conflict_Information.push({
        Conflict_ID: conflictId,
        Rule_ID: `${conflictId}_R${i + 1}`,
        Role: pointRole(i),
        Preference_Type: type,
        Item: item,
        Condition: condition,
      });
    });
    const end = positions.at(-1) ?? first;
    if (!knobs.distractors || end - first < 2) return;
    const hobbies = Object.entries(profile.Others_Profile).flatMap(([key, person]) =>
      Object.entries((person.Preference_Profile ?? {}) as Record<string, string>).map(([hobby, when]) => ({
        key,
        person,
        hobby,
        when,
      })),
    );
    const picked = grng.sample(hobbies, grng.int(0, Math.min(knobs.conditionalDistractors, hobbies.length)));
    for (const h of picked) {
      const at = pickIn(grng, chain, first + 1, end - 1);
      if (at === undefined) continue;
      chain[at]?.Conditional_Conflict_Information.push({
        Conflict_ID: conflictId,
        Role: "Distractor",
        Source_Person_ID: h.key,
        Relationship_To_User: String(h.person.Relationship_To_User),
        Preference_Key: h.hobby,
        Preference_Description: h.when,
      });
    }
  });
  for (const s of chain) s.Conditional_Conflict_Information.sort(byConflictThenRole);
}

/** Sessions where the user's value of `attribute` is stated: its reveal and its updates. */
export function truePoints(chain: Session[], attribute: UpdateAttribute): Array<{ session: number; value: Json }> {
  const points: Array<{ session: number; value: Json }> = [];
  for (const s of chain) {
    const revealed = s.Revealed_Attributes;
    if (revealed) {
      if (attribute === "Social_Status" && revealed.Social_Relationships) {
        points.push({ session: s.Session_ID, value: (revealed.Social_Relationships as Rec).Social_Status as Json });
      } else if (attribute in revealed) points.push({ session: s.Session_ID, value: revealed[attribute] as Json });
    }
    for (const u of s.Updated_Attributes ?? []) {
      if (u.Attribute === attribute) points.push({ session: s.Session_ID, value: u.After });
    }
  }
  return points;
}

/** Another person's value of a dynamic attribute (as `Others_Profile` holds it), if they have one. */
function othersDynamicValue(person: Rec, attribute: UpdateAttribute): Json | undefined {
  switch (attribute) {
    case "Residence":
    case "Career_Status":
    case "Work_Status":
    case "Health_Status":
    case "Marital_Status":
    case "Children_Status":
      return person[attribute] as Json | undefined;
    default:
      return undefined;
  }
}

export function injectDynamicDistractors(rng: Rng, persona: Persona): void {
  const { chain, profile } = persona;
  const used = new Set<number>();
  for (const attribute of [
    "Residence",
    "Marital_Status",
    "Children_Status",
    "Career_Status",
    "Work_Status",
    "Health_Status",
    "Social_Status",
  ] as const) {
    const arng = rng.fork(attribute);
    const points = truePoints(chain, attribute);
    for (let i = 1; i < points.length; i++) {
      const left = points[i - 1] as { session: number; value: Json };
      const right = points[i] as { session: number; value: Json };
      if (right.session - left.session < 2) continue;
      const options = Object.entries(profile.Others_Profile)
        .map(([key, person]) => ({ key, person, value: othersDynamicValue(person, attribute) }))
        .filter((o): o is { key: string; person: Rec; value: Json } => o.value !== undefined)
        .filter((o) => textOf(o.value) !== textOf(left.value) && textOf(o.value) !== textOf(right.value));
      if (!options.length) continue;
      const other = arng.pick(options);
      const inGap = usable(chain).filter((s) => s > left.session && s < right.session);
      const free = inGap.filter((s) => chain[s]?.Session_Type === "chitchat" && !used.has(s));
      const chit = inGap.filter((s) => chain[s]?.Session_Type === "chitchat");
      const at = arng.pick(free.length ? free : chit.length ? chit : inGap.length ? inGap : [-1]);
      if (at < 0) continue;
      used.add(at);
      const record: OthersDynamicRecord = {
        Attribute: attribute,
        Role: "Distractor",
        Source_Person_ID: other.key,
        Relationship_To_User: String(other.person.Relationship_To_User),
        Value: other.value,
        Linked_Left_Session_ID: left.session,
        Linked_Right_Session_ID: right.session,
      };
      chain[at]?.Others_Dynamic_Information.push(record);
    }
  }
}
