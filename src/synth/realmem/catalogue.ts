/**
 * RealMem's generator inputs, in our own words: users, project goals and the
 * state each project's attributes can take. The topics and their attribute
 * schemas are the release's (`topic&goal&attr.json`, arXiv 2601.06966
 * Table 8); the slot values below are ours, small and compositional, enough
 * for the template realiser to state every memory it creates. A model
 * realiser writes the dialogue around the same values.
 */

export interface Slot {
  /** The project attribute (the release's schema name) the slot belongs to. */
  attribute: string;
  key: string;
  /** Values the slot takes over the project; the last is the scaled-back one a downgrade uses. */
  values: readonly string[];
}

export interface ProjectGoal {
  title: string;
  /** The quantitative long-term target (the paper's Project Goal). */
  goal: string;
}

export interface Topic {
  /** The release's `topic` spelling (`Travel_Planning`). */
  id: string;
  attributes: readonly string[];
  slots: readonly Slot[];
  /** A recurring activity the project puts on the user's schedule, and the attribute it belongs to. */
  schedule: { label: string; attribute: string };
  projects: readonly ProjectGoal[];
}

const s = (attribute: string, key: string, ...values: string[]): Slot => ({ attribute, key, values });

export const TOPICS: readonly Topic[] = [
  {
    id: "Fitness",
    attributes: ["Training Schedule", "Diet/Nutrition Plan", "Body Metrics Records", "Other Fitness Attributes"],
    slots: [
      s(
        "Training Schedule",
        "weekly strength sessions",
        "3 sessions of 45 minutes",
        "4 sessions of 40 minutes",
        "2 sessions of 30 minutes",
      ),
      s("Diet/Nutrition Plan", "daily calorie target", "1,900 kcal", "1,750 kcal", "2,100 kcal"),
      s("Body Metrics Records", "current weight", "82 kg", "79.5 kg", "80.4 kg"),
      s(
        "Other Fitness Attributes",
        "recovery routine",
        "10 minutes of stretching after each workout",
        "a weekly yoga class",
        "5 minutes of foam rolling",
      ),
    ],
    schedule: { label: "Strength training", attribute: "Training Schedule" },
    projects: [
      { title: "Lose 8 kg before the summer wedding", goal: "lose 8 kg in 5 months without losing strength" },
      { title: "First 10K race", goal: "run 10 km in under 55 minutes within 4 months" },
    ],
  },
  {
    id: "Travel_Planning",
    attributes: ["Travel Plan", "Attraction Scheme", "Food Scheme", "Other Tourism-Related Attributes"],
    slots: [
      s("Travel Plan", "trip length", "10 days", "12 days", "8 days"),
      s(
        "Attraction Scheme",
        "must-see sights",
        "the old harbour and the cliff walk",
        "the cliff walk and the glass museum",
        "the old harbour only",
      ),
      s(
        "Food Scheme",
        "dinner plan",
        "one seafood tasting menu",
        "street-food markets every night",
        "two set-menu dinners",
      ),
      s("Other Tourism-Related Attributes", "total budget", "3,500 euros", "4,200 euros", "2,800 euros"),
    ],
    schedule: { label: "Trip planning call", attribute: "Travel Plan" },
    projects: [
      { title: "Coastal Portugal road trip", goal: "plan a 10-day coastal road trip for two within 3,500 euros" },
      {
        title: "Autumn trip to Kyoto",
        goal: "plan a 9-day Kyoto trip avoiding the busiest sights, within 4,000 euros",
      },
    ],
  },
  {
    id: "Knowledge_Learning",
    attributes: ["Learning Path/Syllabus", "Other Learning Attributes"],
    slots: [
      s(
        "Learning Path/Syllabus",
        "current module",
        "data cleaning with pandas",
        "grouping and pivot tables",
        "plotting basics",
      ),
      s("Learning Path/Syllabus", "weekly study goal", "5 hours a week", "7 hours a week", "3 hours a week"),
      s(
        "Other Learning Attributes",
        "practice project",
        "an analysis of city bike rentals",
        "a survey of local rents",
        "a small sales dashboard",
      ),
      s(
        "Other Learning Attributes",
        "preferred material",
        "short video lessons",
        "a printed workbook",
        "interactive notebooks",
      ),
    ],
    schedule: { label: "Study block", attribute: "Learning Path/Syllabus" },
    projects: [
      {
        title: "Practical Python data analysis",
        goal: "finish a 12-week data analysis course and publish one notebook report",
      },
      { title: "Wine tasting certificate", goal: "pass a level-2 wine tasting exam in 4 months" },
    ],
  },
  {
    id: "Financial_Planning",
    attributes: [
      "Risk Management",
      "Goal-Oriented Financial Planning",
      "Financial Status Diagnosis & Budgeting",
      "Financial Literacy Education",
    ],
    slots: [
      s("Goal-Oriented Financial Planning", "monthly savings transfer", "600 euros", "750 euros", "400 euros"),
      s(
        "Financial Status Diagnosis & Budgeting",
        "grocery budget",
        "450 euros a month",
        "400 euros a month",
        "500 euros a month",
      ),
      s(
        "Risk Management",
        "emergency fund target",
        "three months of expenses",
        "six months of expenses",
        "two months of expenses",
      ),
      s("Financial Literacy Education", "reading topic", "index funds", "pension accounts", "mortgage basics"),
    ],
    schedule: { label: "Budget review", attribute: "Financial Status Diagnosis & Budgeting" },
    projects: [
      { title: "House deposit fund", goal: "save 30,000 euros for a deposit in 3 years" },
      { title: "Debt-free by next spring", goal: "clear 8,000 euros of card debt in 10 months" },
    ],
  },
  {
    id: "Career_Development",
    attributes: [
      "Resume & Cover Letter Optimization",
      "Mock Interview Simulation",
      "Behavioral Interview Preparation",
      "Technical Skill Assessment",
      "Career Path Planning",
      "Other Career Inquiries",
    ],
    slots: [
      s(
        "Resume & Cover Letter Optimization",
        "resume headline",
        "operations analyst with a supply-chain focus",
        "data-driven operations lead",
        "supply-chain analyst",
      ),
      s(
        "Mock Interview Simulation",
        "mock interview format",
        "a 30-minute case interview",
        "a 45-minute panel interview",
        "a 20-minute screening call",
      ),
      s(
        "Behavioral Interview Preparation",
        "key story",
        "the warehouse routing project",
        "the vendor renegotiation",
        "the onboarding redesign",
      ),
      s(
        "Career Path Planning",
        "target role",
        "senior operations analyst",
        "operations manager",
        "analyst in a smaller firm",
      ),
    ],
    schedule: { label: "Interview practice", attribute: "Mock Interview Simulation" },
    projects: [
      { title: "Move into an analyst role", goal: "land a senior analyst role within 6 months" },
      { title: "Return to work after parental leave", goal: "rebuild the CV and secure two interviews in 3 months" },
    ],
  },
  {
    id: "Mental_Health_Support",
    attributes: [
      "Crisis Intervention Guidelines",
      "Interpersonal Relationship Management",
      "Cognitive Restructuring & Suggestions",
      "Emotional Counseling & Listening",
    ],
    slots: [
      s(
        "Cognitive Restructuring & Suggestions",
        "evening wind-down",
        "a 5-minute decompression sit after work",
        "a 10-minute walk before dinner",
        "2 minutes of breathing",
      ),
      s(
        "Interpersonal Relationship Management",
        "boundary to practise",
        "declining one extra request a week",
        "no work messages after 8 PM",
        "asking for one deadline extension",
      ),
      s(
        "Emotional Counseling & Listening",
        "main stressor",
        "the long commute",
        "the open-plan office noise",
        "the monthly reporting crunch",
      ),
      s(
        "Crisis Intervention Guidelines",
        "support contact",
        "a close friend on weekday evenings",
        "the employee assistance line",
        "a sibling at weekends",
      ),
    ],
    schedule: { label: "Journaling", attribute: "Cognitive Restructuring & Suggestions" },
    projects: [
      { title: "Cope with work exhaustion", goal: "cut weekly stress scores from 8 to 5 within 3 months" },
      { title: "Handle a difficult team change", goal: "feel settled in the new team within 10 weeks" },
    ],
  },
  {
    id: "Literary_Creation",
    attributes: ["Work Outline", "Character Profiles", "Foreshadowing/Clues Library", "Other Writing Attributes"],
    slots: [
      s(
        "Work Outline",
        "story structure",
        "three acts over 12 chapters",
        "five parts over 15 chapters",
        "two acts over 8 chapters",
      ),
      s(
        "Character Profiles",
        "protagonist",
        "a retired lighthouse keeper named Ove",
        "a young ferry mechanic named Ines",
        "Ove and his estranged daughter",
      ),
      s(
        "Foreshadowing/Clues Library",
        "central clue",
        "a logbook with a missing page",
        "a brass key found in the lamp room",
        "a photograph with a torn corner",
      ),
      s("Other Writing Attributes", "word count target", "60,000 words", "75,000 words", "45,000 words"),
    ],
    schedule: { label: "Writing session", attribute: "Work Outline" },
    projects: [
      {
        title: "A mystery novel set on a lighthouse island",
        goal: "finish a first draft of a mystery novel in 6 months",
      },
      { title: "A ten-minute suspense short film", goal: "write a shootable 10-minute script with two locations" },
    ],
  },
  {
    id: "Code_Architecture_Design",
    attributes: [
      "Business Process Changes",
      "Database Model Changes",
      "Business Requirement Changes",
      "Other Architecture Design Attributes",
    ],
    slots: [
      s(
        "Database Model Changes",
        "orders storage",
        "one Postgres table per tenant",
        "a shared table with a tenant column",
        "a document store",
      ),
      s(
        "Business Process Changes",
        "checkout flow",
        "payment before stock reservation",
        "stock reservation before payment",
        "a single combined step",
      ),
      s(
        "Business Requirement Changes",
        "peak load target",
        "500 orders per minute",
        "1,200 orders per minute",
        "300 orders per minute",
      ),
      s(
        "Other Architecture Design Attributes",
        "deployment style",
        "a modular monolith",
        "three services behind a gateway",
        "serverless functions",
      ),
    ],
    schedule: { label: "Architecture review", attribute: "Other Architecture Design Attributes" },
    projects: [
      {
        title: "Order service for a small online shop",
        goal: "ship an order service handling 500 orders per minute in 4 months",
      },
      { title: "Booking platform rewrite", goal: "replace the legacy booking system within 6 months" },
    ],
  },
  {
    id: "Project_Management",
    attributes: [
      "Project Planning & Roadmap",
      "Task Breakdown & Delegation",
      "Progress Tracking & Status Sync",
      "Meeting Minutes & Action Items",
      "Other Project Management Attributes",
    ],
    slots: [
      s("Project Planning & Roadmap", "launch date", "the first week of June", "mid-June", "the end of June"),
      s("Task Breakdown & Delegation", "owner of the vendor contract", "Marta", "Jonas", "the user personally"),
      s(
        "Progress Tracking & Status Sync",
        "status report format",
        "a weekly one-page update",
        "a fortnightly dashboard",
        "a short Friday email",
      ),
      s(
        "Meeting Minutes & Action Items",
        "open action item",
        "confirm the venue deposit",
        "book the caterer tasting",
        "send the speaker invitations",
      ),
    ],
    schedule: { label: "Team status meeting", attribute: "Progress Tracking & Status Sync" },
    projects: [
      { title: "Community festival launch", goal: "run a festival for 2,000 visitors with a budget of 40,000 euros" },
      { title: "Office move", goal: "move 60 people to the new office in 10 weeks without a lost workday" },
    ],
  },
  {
    id: "Health_Consultation",
    attributes: [
      "Sleep & Lifestyle Habits",
      "Health Knowledge & Checkup Interpretation",
      "Nutritional Guidance",
      "Other Health-Related Inquiries",
    ],
    slots: [
      s("Sleep & Lifestyle Habits", "bedtime", "10:30 PM", "11 PM", "10 PM"),
      s(
        "Health Knowledge & Checkup Interpretation",
        "cholesterol reading",
        "LDL of 3.9 mmol/L",
        "LDL of 3.4 mmol/L",
        "LDL of 3.6 mmol/L",
      ),
      s(
        "Nutritional Guidance",
        "breakfast plan",
        "oats with berries",
        "wholegrain toast with eggs",
        "yoghurt with seeds",
      ),
      s("Other Health-Related Inquiries", "supplement", "vitamin D in winter", "omega-3 capsules", "no supplements"),
    ],
    schedule: { label: "Evening walk", attribute: "Sleep & Lifestyle Habits" },
    projects: [
      { title: "Lower cholesterol without medication", goal: "bring LDL below 3.0 mmol/L in 6 months" },
      { title: "Fix a broken sleep rhythm", goal: "sleep 7 hours on 5 nights a week within 2 months" },
    ],
  },
  {
    id: "Academic_Writing",
    attributes: [
      "Topic Selection & Ideation",
      "Literature Review & Research Summary",
      "Drafting & Content Generation",
      "Citation & Formatting",
      "Proofreading & Polishing",
      "Other Academic Inquiries",
    ],
    slots: [
      s(
        "Topic Selection & Ideation",
        "research question",
        "how bike lanes change local retail footfall",
        "how bike lanes change commute times",
        "bike lanes and road safety",
      ),
      s(
        "Literature Review & Research Summary",
        "core sources",
        "eight peer-reviewed studies",
        "twelve studies and two reports",
        "five recent studies",
      ),
      s("Citation & Formatting", "citation style", "APA 7", "Chicago author-date", "Harvard"),
      s(
        "Drafting & Content Generation",
        "section in progress",
        "the methods section",
        "the results section",
        "the introduction",
      ),
    ],
    schedule: { label: "Supervisor meeting", attribute: "Other Academic Inquiries" },
    projects: [
      { title: "Master's thesis on urban cycling", goal: "submit a 15,000-word thesis in 5 months" },
      { title: "Conference paper on remote work", goal: "submit an 8-page paper before the autumn deadline" },
    ],
  },
];

export interface UserProfile {
  /** `Kenta_Tanaka`: the file name and `_metadata.person_name`. */
  key: string;
  name: string;
  role: string;
  demographics: { age: string; occupation: string; location: string; education: string };
  context: Record<string, string>;
  /** Lasting facts about the user (Persona memories) a session may reveal. */
  facts: readonly string[];
}

export const USERS: readonly UserProfile[] = [
  {
    key: "Nadia_Haddad",
    name: "Nadia Haddad",
    role: "Hospital logistics coordinator",
    demographics: {
      age: "34",
      occupation: "Logistics coordinator at a city hospital",
      location: "Lyon, France",
      education: "Master's degree",
    },
    context: { living_situation: "Lives with her partner and a cat", work_stress_level: "High: rotating early shifts" },
    facts: [
      "User is vegetarian.",
      "User works early shifts that start at 6 AM.",
      "User prefers short answers in bullet points.",
      "User has a mild knee injury from last year.",
    ],
  },
  {
    key: "Tomas_Berg",
    name: "Tomas Berg",
    role: "Secondary-school maths teacher",
    demographics: {
      age: "46",
      occupation: "Maths teacher",
      location: "Gothenburg, Sweden",
      education: "Teaching degree",
    },
    context: { living_situation: "Married, two teenagers", work_stress_level: "Medium, with peaks around exam weeks" },
    facts: [
      "User is lactose intolerant.",
      "User cannot do anything on Tuesday evenings because of parents' meetings.",
      "User likes step-by-step plans with numbered steps.",
      "User is saving for a family trip next summer.",
    ],
  },
  {
    key: "Aiko_Mori",
    name: "Aiko Mori",
    role: "Freelance illustrator",
    demographics: { age: "29", occupation: "Freelance illustrator", location: "Osaka, Japan", education: "Art school" },
    context: { living_situation: "Lives alone in a small studio", work_stress_level: "Irregular, deadline-driven" },
    facts: [
      "User has irregular income from commissions.",
      "User works best late at night.",
      "User dislikes phone calls and prefers written messages.",
      "User is allergic to shellfish.",
    ],
  },
  {
    key: "Samuel_Osei",
    name: "Samuel Osei",
    role: "Operations analyst",
    demographics: {
      age: "38",
      occupation: "Operations analyst at a logistics firm",
      location: "Manchester, UK",
      education: "Bachelor's degree",
    },
    context: { living_situation: "Lives with his wife and a toddler", work_stress_level: "Medium-high, long commute" },
    facts: [
      "User has a 90-minute train commute each way.",
      "User looks after a toddler in the evenings.",
      "User prefers concrete numbers over general advice.",
      "User does not drink alcohol.",
    ],
  },
  {
    key: "Carla_Mendes",
    name: "Carla Mendes",
    role: "Small bakery owner",
    demographics: {
      age: "52",
      occupation: "Owner of a neighbourhood bakery",
      location: "Porto, Portugal",
      education: "Vocational school",
    },
    context: { living_situation: "Lives above the bakery", work_stress_level: "High: starts work at 4 AM" },
    facts: [
      "User starts work at 4 AM every day except Monday.",
      "User has type 2 diabetes.",
      "User prefers plans explained in plain language without jargon.",
      "User's only free day is Monday.",
    ],
  },
];

/** Weekdays and times the schedule items take. */
export const SCHEDULE_DAYS: readonly string[][] = [
  ["Monday", "Wednesday"],
  ["Tuesday", "Thursday"],
  ["Saturday"],
  ["Sunday"],
  ["Monday", "Wednesday", "Friday"],
  ["Wednesday"],
];
export const SCHEDULE_TIMES: readonly string[] = ["7 AM", "12:30 PM", "6 PM", "7 PM", "8:30 PM"];

/** Reasons a plan slips (the paper's volatility: subjective, objective, systemic). */
export const SETBACKS: readonly string[] = [
  "I've been feeling really unmotivated this week",
  "I twisted my ankle on the stairs",
  "work has me doing overtime all month",
  "a business trip just came up",
  "my laptop broke and the repair takes a week",
  "the weather has turned awful",
  "I caught a bad cold",
];

/** Vague, emotional feedback that carries no instruction (the paper's Proactive Alignment queries). */
export const VAGUE_FEEDBACK: readonly string[] = [
  "Honestly, this is fantastic. I feel like it's finally coming together.",
  "Ugh, I'm a bit worn out this week.",
  "Okay... I'm not sure how I feel about all this.",
  "That went better than I expected!",
  "I keep putting this off and I don't love that.",
];
