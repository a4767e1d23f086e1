/**
 * The timeline `T_u` and the dynamic state trajectory (paper §3.3.2, Eq. 4–5;
 * upstream Step2_1 and Step2_2, which is a rule sampler, not an LLM):
 * - 3–6 `initial_reveal` sessions on distinct days of the first month spread
 *   the seven dynamic attributes between them;
 * - one session per following month, a share `updateShare` of them `update`
 *   (shuffled), the rest `chitchat`; an update changes 1 attribute, or 2 with
 *   probability `twoAttributeShare`, chosen with two-level weights (frequent
 *   states 0.6 vs structural ones 0.4), persona drivers and a staleness boost,
 *   and never an attribute in its cooldown or whose preconditions fail; an
 *   update that changes nothing becomes chitchat;
 * - a final `future_plan` session in the month after the last.
 */
import type { Rng } from "../rng.ts";
import {
  type Json,
  type Profile,
  REVEAL_ATTRIBUTES,
  type Rec,
  type Session,
  UPDATE_ATTRIBUTES,
  type UpdateAttribute,
  type UpdatedAttribute,
  type UpdateReason,
} from "./model.ts";
import type { Pools } from "./pools.ts";
import { careerSnapshot, childRecord, countryOf, partnerRecord, place } from "./profile.ts";

export interface TimelineKnobs {
  /** `YYYY-MM` of the reveal month. */
  start: string;
  /** `YYYY-MM` of the last monthly session. */
  end: string;
  updateShare: number;
  twoAttributeShare: number;
  revealSessions: [number, number];
}

const FREQUENT: readonly UpdateAttribute[] = ["Health_Status", "Social_Status", "Work_Status"];
const STRUCTURAL: readonly UpdateAttribute[] = ["Residence", "Marital_Status", "Children_Status", "Career_Status"];
const GROUP_SHARE = { frequent: 0.6, structural: 0.4 };
const BASE_MULTIPLIER: Partial<Record<UpdateAttribute, number>> = {
  Residence: 1.3,
  Marital_Status: 1.6,
  Children_Status: 1.8,
  Career_Status: 1.3,
};

export const DRIVERS: Record<UpdateAttribute, { driver: string; trigger: string }> = {
  Residence: { driver: "life_relocation", trigger: "structural_change" },
  Marital_Status: { driver: "relationship_progression", trigger: "structural_change" },
  Children_Status: { driver: "family_expansion", trigger: "structural_change" },
  Career_Status: { driver: "career_status_change", trigger: "structural_change" },
  Work_Status: { driver: "routine_workload_change", trigger: "short_term_state_change" },
  Health_Status: { driver: "health_fluctuation", trigger: "short_term_state_change" },
  Social_Status: { driver: "social_activity_change", trigger: "short_term_state_change" },
};

const pad = (n: number) => String(n).padStart(2, "0");

export function parseMonth(text: string): { year: number; month: number } {
  const m = /^(\d{4})-(\d{2})$/.exec(text);
  if (!m) throw new Error(`expected YYYY-MM, got "${text}"`);
  return { year: Number(m[1]), month: Number(m[2]) };
}

function addMonths(start: { year: number; month: number }, n: number): { year: number; month: number } {
  const index = start.year * 12 + (start.month - 1) + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

function monthsBetween(a: { year: number; month: number }, b: { year: number; month: number }): number {
  return b.year * 12 + b.month - (a.year * 12 + a.month);
}

const clone = <T>(value: T): T => structuredClone(value);

/** The value of `attribute` in a Dynamic_Profile-shaped state. */
export function stateValue(state: Rec, attribute: UpdateAttribute): Json {
  if (attribute === "Social_Status") return (state.Social_Relationships as Rec).Social_Status as Json;
  return state[attribute] as Json;
}

function setStateValue(state: Rec, attribute: UpdateAttribute, value: Json): void {
  if (attribute === "Social_Status") (state.Social_Relationships as Rec).Social_Status = value;
  else state[attribute] = value;
}

function childCount(children: Rec): number {
  return Object.keys(children).filter((k) => k.startsWith("Child_")).length;
}

/** Persona drivers: life-goal keywords and MBTI letters scale how often an attribute changes. */
function driverMultipliers(profile: Profile): Partial<Record<UpdateAttribute, number>> {
  const goal = `${profile.Life_Goal.Type} ${profile.Life_Goal.Description}`.toLowerCase();
  const m: Partial<Record<UpdateAttribute, number>> = {};
  const boost = (a: UpdateAttribute, f: number) => {
    m[a] = (m[a] ?? 1) * f;
  };
  if (/career|achiev|promot|position|income|mobility|financ/.test(goal)) boost("Career_Status", 1.6);
  if (/family|child|parent/.test(goal)) {
    boost("Children_Status", 2.0);
    boost("Marital_Status", 1.8);
  }
  if (/health|fit|well-being|wellbeing/.test(goal)) boost("Health_Status", 1.8);
  if (/travel|move|abroad|relocat|region/.test(goal)) boost("Residence", 1.6);
  if (/social|community|neighbour|neighbor|volunteer|people|others/.test(goal)) boost("Social_Status", 1.6);
  const mbti = String(profile.Personality.MBTI ?? "");
  if (mbti.startsWith("E")) boost("Social_Status", 1.3);
  if (mbti.endsWith("J")) boost("Career_Status", 1.2);
  return m;
}

class Transitions {
  readonly cooldown: Record<UpdateAttribute, number>;
  constructor(
    private readonly pools: Pools,
    private readonly profile: Profile,
  ) {
    const dy = pools.Dynamic_Information;
    this.cooldown = {
      Residence: 3,
      Marital_Status: dy.Marital_Status.Cooldown_Months,
      Children_Status: dy.Children_Status.Cooldown_Months,
      Career_Status: dy.Career_Status.Cooldown_Months,
      Work_Status: dy.Work_Status.Cooldown_Months,
      Health_Status: dy.Health_Status.Cooldown_Months,
      Social_Status: dy.Social_Relationships.Social_Status.Cooldown_Months,
    };
  }

  /** Preconditions of `attribute` in `state` at `date` (V_d's feasibility half). */
  feasible(attribute: UpdateAttribute, state: Rec, date: string): boolean {
    if (attribute === "Children_Status") {
      const marital = (state.Marital_Status as Rec).Status;
      const age = Number(date.slice(0, 4)) - Number(String(this.profile.Fixed_Profile.Birthdate).slice(0, 4));
      const [g0] = this.pools.Dynamic_Information.Children_Status.Parent_Child_Age_Gap_Range;
      return marital === "Married" && childCount(state.Children_Status as Rec) < 4 && age >= g0 && age <= 50;
    }
    if (attribute === "Marital_Status") {
      const status = String((state.Marital_Status as Rec).Status);
      return (this.pools.Dynamic_Information.Marital_Status.Allowed_Transitions[status] ?? []).length > 0;
    }
    return true;
  }

  /** A new value for `attribute` (v̂), or undefined when none differs from the current one. */
  propose(rng: Rng, attribute: UpdateAttribute, state: Rec, date: string): Json | undefined {
    const dy = this.pools.Dynamic_Information;
    const before = stateValue(state, attribute);
    const fixed = this.profile.Fixed_Profile;
    switch (attribute) {
      case "Residence": {
        const country = rng.bool(0.5) ? countryOf(before) : undefined;
        for (let i = 0; i < 6; i++) {
          const next = place(rng, this.pools, country);
          if (next !== before) return next;
        }
        return undefined;
      }
      case "Marital_Status": {
        const current = before as Rec;
        const next = rng.pick(dy.Marital_Status.Allowed_Transitions[String(current.Status)] ?? []);
        if (next === "Married" && current.Name)
          return { Status: next, Name: current.Name, Birthdate: current.Birthdate as Json };
        if (next === "Dating") {
          return {
            Status: next,
            ...partnerRecord(rng, this.pools, String(fixed.Gender), Number(String(fixed.Birthdate).slice(0, 4))),
          };
        }
        return { Status: next };
      }
      case "Children_Status": {
        const current = clone(before as Rec);
        const n = childCount(current) + 1;
        const family = String(fixed.Name).split(" ").slice(1).join(" ");
        const day = Math.max(1, Number(date.slice(8, 10)) - rng.int(1, 20));
        current.Status = "Yes";
        current[`Child_${n}`] = childRecord(rng, this.pools, family, `${date.slice(0, 8)}${pad(day)}`);
        return current;
      }
      case "Career_Status": {
        for (let i = 0; i < 6; i++) {
          const next = careerSnapshot(rng, this.pools);
          if (JSON.stringify(next) !== JSON.stringify(before)) return next;
        }
        return undefined;
      }
      case "Work_Status": {
        const options = dy.Work_Status.Current_State.filter((s) => s !== (before as Rec).Current_State);
        return options.length ? { Current_State: rng.pick(options) } : undefined;
      }
      case "Social_Status": {
        const options = dy.Social_Relationships.Social_Status.Current_State.filter(
          (s) => s !== (before as Rec).Current_State,
        );
        return options.length ? { Current_State: rng.pick(options) } : undefined;
      }
      case "Health_Status": {
        const current = before as Rec;
        const next = { ...current };
        const which = rng.pick(["Physical_Health", "Mental_Health", "both"]);
        if (which !== "Mental_Health") {
          next.Physical_Health = rng.pick(
            dy.Health_Status.Physical_Health.filter((v) => v !== current.Physical_Health),
          );
        }
        if (which !== "Physical_Health") {
          next.Mental_Health = rng.pick(dy.Health_Status.Mental_Health.filter((v) => v !== current.Mental_Health));
        }
        return next;
      }
    }
  }
}

/** Picks k distinct attributes with the two-level weights among the eligible ones. */
function chooseAttributes(
  rng: Rng,
  eligible: UpdateAttribute[],
  k: number,
  drivers: Partial<Record<UpdateAttribute, number>>,
  staleMonths: (a: UpdateAttribute) => number,
): UpdateAttribute[] {
  const chosen: UpdateAttribute[] = [];
  let left = [...eligible];
  while (chosen.length < k && left.length) {
    const weightOf = (a: UpdateAttribute) => {
      const structural = STRUCTURAL.includes(a);
      const group = left.filter((x) => STRUCTURAL.includes(x) === structural);
      const mult = (x: UpdateAttribute) =>
        (BASE_MULTIPLIER[x] ?? 1) *
        (drivers[x] ?? 1) *
        (STRUCTURAL.includes(x) ? 1 + Math.min(0.08 * staleMonths(x), 0.8) : 1);
      const groupTotal = group.reduce((s, x) => s + mult(x), 0);
      // With one group empty, the other takes the whole mass.
      const hasBoth = left.some((x) => STRUCTURAL.includes(x)) && left.some((x) => FREQUENT.includes(x));
      const share = hasBoth ? (structural ? GROUP_SHARE.structural : GROUP_SHARE.frequent) : 1;
      return (share * mult(a)) / groupTotal;
    };
    const pick = rng.weighted(left, left.map(weightOf));
    chosen.push(pick);
    left = left.filter((a) => a !== pick);
  }
  return chosen;
}

/** The reveal sessions, the monthly sessions with their state trajectory, and the future_plan session. */
export function buildTimeline(rng: Rng, pools: Pools, profile: Profile, knobs: TimelineKnobs): Session[] {
  const start = parseMonth(knobs.start);
  const end = parseMonth(knobs.end);
  const months = monthsBetween(start, end);
  const chain: Session[] = [];
  const empty = () => ({
    Static_Conflict_Information: [],
    Conditional_Conflict_Information: [],
    Others_Dynamic_Information: [],
  });

  // Initial reveal: the seven attributes spread over 3–6 days of the first month.
  const revealRng = rng.fork("reveal");
  const nReveal = revealRng.int(...knobs.revealSessions);
  const days = revealRng
    .sample(
      Array.from({ length: 28 }, (_, i) => i + 1),
      nReveal,
    )
    .sort((a, b) => a - b);
  const order = revealRng.shuffle(REVEAL_ATTRIBUTES);
  const groups: string[][] = days.map(() => []);
  order.forEach((attribute, i) => {
    (groups[i < nReveal ? i : revealRng.int(0, nReveal - 1)] as string[]).push(attribute);
  });
  const initial = profile.Dynamic_Profile;
  days.forEach((day, i) => {
    const revealed: Rec = {};
    for (const a of REVEAL_ATTRIBUTES) if ((groups[i] as string[]).includes(a)) revealed[a] = clone(initial[a] as Json);
    chain.push({
      Session_ID: chain.length,
      Date: `${start.year}-${pad(start.month)}-${pad(day)}`,
      Session_Type: "initial_reveal",
      Revealed_Attributes: revealed,
      ...empty(),
    });
  });

  // Monthly sessions: a fixed share of updates, in shuffled months.
  const monthRng = rng.fork("months");
  const nUpdates = Math.floor(months * knobs.updateShare);
  const updateMonths = new Set(
    monthRng.sample(
      Array.from({ length: months }, (_, i) => i + 1),
      nUpdates,
    ),
  );
  const transitions = new Transitions(pools, profile);
  const drivers = driverMultipliers(profile);
  const state = clone(initial);
  const lastChange = Object.fromEntries(UPDATE_ATTRIBUTES.map((a) => [a, 0])) as Record<UpdateAttribute, number>;
  for (let m = 1; m <= months; m++) {
    const { year, month } = addMonths(start, m);
    const srng = rng.fork(`month/${m}`);
    const date = `${year}-${pad(month)}-${pad(srng.int(1, 28))}`;
    const before = clone(state);
    const updates: UpdatedAttribute[] = [];
    const reasons: UpdateReason[] = [];
    if (updateMonths.has(m)) {
      const eligible = UPDATE_ATTRIBUTES.filter(
        (a) => m - lastChange[a] > transitions.cooldown[a] && transitions.feasible(a, state, date),
      );
      const k = srng.bool(knobs.twoAttributeShare) ? 2 : 1;
      for (const attribute of chooseAttributes(srng, eligible, k, drivers, (a) => m - lastChange[a])) {
        const previous = stateValue(state, attribute);
        const after = transitions.propose(srng.fork(attribute), attribute, state, date);
        // V_d: a change must be a real one.
        if (after === undefined || JSON.stringify(after) === JSON.stringify(previous)) continue;
        setStateValue(state, attribute, after);
        lastChange[attribute] = m;
        updates.push({ Attribute: attribute, Before: clone(previous), After: clone(after) });
        reasons.push({
          Attribute: attribute,
          Reason: { Driver: DRIVERS[attribute].driver, Trigger_Type: DRIVERS[attribute].trigger },
        });
      }
    }
    chain.push({
      Session_ID: chain.length,
      Date: date,
      Session_Type: updates.length ? "update" : "chitchat",
      State_Before: before,
      State_After: clone(state),
      Updated_Attributes: updates,
      Update_Reason: updates.length ? reasons : null,
      ...empty(),
    });
  }

  const after = addMonths(end, 1);
  chain.push({
    Session_ID: chain.length,
    Date: `${after.year}-${pad(after.month)}-15`,
    Session_Type: "future_plan",
    State_Before: clone(state),
    State_After: clone(state),
    Updated_Attributes: [],
    Update_Reason: { Driver: "future_planning", Trigger_Type: "planning_only" },
    ...empty(),
  });
  return chain;
}
