/**
 * The users whose histories SubtleMemory's generator builds. The paper uses
 * ten PersonaMem-v2 profiles (arXiv 2606.05761 App. B.1, Table 5); these are
 * our own, in the same spirit: a short description and a sanitised profile,
 * shown to the judge as `persona_str` for user-related cases.
 */

export interface Profile {
  id: string;
  name: string;
  short_persona: string;
  age: number;
  gender: string;
  location: string;
  occupation: string;
  interests: string[];
}

export const PROFILES: readonly Profile[] = [
  {
    id: "2001",
    name: "Amara Okafor",
    short_persona: "A secondary-school science teacher who runs weekend maker workshops",
    age: 38,
    gender: "Female",
    location: "Leeds, United Kingdom",
    occupation: "Science teacher",
    interests: ["electronics kits", "community gardening", "board games"],
  },
  {
    id: "2002",
    name: "Lars Henning",
    short_persona: "A logistics planner training for his first marathon",
    age: 31,
    gender: "Male",
    location: "Aarhus, Denmark",
    occupation: "Logistics planner",
    interests: ["distance running", "jazz records", "cooking"],
  },
  {
    id: "2003",
    name: "Mei Lin Tan",
    short_persona: "A freelance translator learning Portuguese before a move to Lisbon",
    age: 44,
    gender: "Female",
    location: "Penang, Malaysia",
    occupation: "Freelance translator",
    interests: ["languages", "piano", "balcony gardening"],
  },
  {
    id: "2004",
    name: "Diego Ramírez",
    short_persona: "A hospital pharmacist and father of two who plans family holidays months ahead",
    age: 41,
    gender: "Male",
    location: "Valencia, Spain",
    occupation: "Hospital pharmacist",
    interests: ["train travel", "home budgeting", "reading"],
  },
];

/** `persona_str` as the release stores it: the profile as JSON text. */
export function personaString(p: Profile): string {
  const { id: _id, ...profile } = p;
  return JSON.stringify(profile);
}
