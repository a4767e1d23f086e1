/**
 * SubtleMemory's semantic seeds (the paper's Stage 1, arXiv 2606.05761
 * App. B.1): one fact each, with the material its relation-controlled
 * variants are built from. The paper takes user-related seeds from
 * PersonaMem-v2 preferences and world-knowledge seeds from QA datasets; ours
 * are our own: persona-neutral preferences (`{name}` is filled with the
 * persona's name) and facts about fictional places and organisations, so no
 * answer can come from a model's own knowledge. A user's list in the same
 * JSON shape replaces ours through the `seeds` knob.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { SOURCES } from "../../benchmarks/subtlememory/labels.ts";
import { DataError } from "../../core/errors.ts";

const text = z.string().trim().min(1);

export const Seed = z
  .object({
    id: text,
    source: z.enum(SOURCES),
    topic: text,
    /** What the memory is about, as a noun phrase a query can name ("the apartment renovation"). */
    about: text,
    /** The attribute the fact sets ("preferred interior style"). */
    attribute: text,
    /** The seed fact's value ("Japanese minimalist interiors"). */
    value: text,
    /** Other surface forms of the same value: Any-one variants. */
    paraphrases: z.array(text).default([]),
    /** A value that cannot hold together with `value` under the same condition: Contradictory variants. */
    rival: text.optional(),
    /** Compatible details that must be combined: Multi-evidence variants (each its own sentence). */
    facets: z.array(z.object({ key: text, fact: text, says: text })).default([]),
    /** Conditions under which different values hold: Contextual variants ("for the workshop space"). */
    contexts: z.array(z.object({ condition: text, value: text })).default([]),
    /** Periods with different values: Temporal variants; `past` picks "was" over "is". */
    periods: z.array(z.object({ when: text, value: text, past: z.boolean() })).default([]),
    /** Plausible wrong values for incorrect answers and option lists. */
    distractors: z.array(text).default([]),
  })
  .strict();
export type Seed = z.infer<typeof Seed>;

const f = (key: string, fact: string, says: string) => ({ key, fact, says });

/** Our own seed list: 12 user-related preferences, 8 facts about fictional entities. */
export const SEEDS: readonly Seed[] = [
  {
    id: "interior-style",
    source: "user-related",
    topic: "Design",
    about: "the apartment renovation",
    attribute: "preferred interior style",
    value: "Japanese minimalist interiors",
    paraphrases: ["a pared-back Japanese look", "Japanese-style minimalism"],
    rival: "a maximalist vintage style",
    facets: [
      f(
        "light wood furniture",
        "{name} wants light wood furniture in the apartment.",
        "I want light wood furniture in the apartment.",
      ),
      f(
        "a neutral colour palette",
        "{name} wants a neutral colour palette throughout the apartment.",
        "I want a neutral colour palette throughout the apartment.",
      ),
      f(
        "concealed storage",
        "{name} wants concealed storage so the rooms stay uncluttered.",
        "I want concealed storage so the rooms stay uncluttered.",
      ),
    ],
    contexts: [
      { condition: "for the apartment", value: "Japanese minimalist interiors" },
      { condition: "for the workshop space", value: "bold industrial styling" },
    ],
    periods: [
      { when: "since moving into the new apartment", value: "Japanese minimalist interiors", past: false },
      { when: "in the shared student flat", value: "colourful eclectic decor", past: true },
    ],
    distractors: ["rustic farmhouse decor", "Art Deco glamour", "coastal whitewashed interiors"],
  },
  {
    id: "running-time",
    source: "user-related",
    topic: "Fitness",
    about: "the weekly training plan",
    attribute: "preferred time for long runs",
    value: "early Sunday mornings",
    paraphrases: ["Sunday at dawn", "first thing on Sunday"],
    rival: "Saturday evenings",
    facets: [
      f("about 15 kilometres", "{name}'s long runs are about 15 kilometres.", "My long runs are about 15 kilometres."),
      f("the river trail", "{name} does long runs on the river trail.", "I do my long runs on the river trail."),
      f(
        "an easy conversational pace",
        "{name} keeps long runs at an easy conversational pace.",
        "I keep my long runs at an easy conversational pace.",
      ),
    ],
    contexts: [
      { condition: "during the marathon build-up", value: "early Sunday mornings" },
      { condition: "during the off-season", value: "Wednesday lunchtimes" },
    ],
    periods: [
      { when: "since the new job started", value: "early Sunday mornings", past: false },
      { when: "while working night shifts", value: "late Tuesday afternoons", past: true },
    ],
    distractors: ["Friday nights", "Monday mornings", "Thursday lunchtimes"],
  },
  {
    id: "coffee-order",
    source: "user-related",
    topic: "Food",
    about: "the office coffee order",
    attribute: "usual coffee order",
    value: "an oat milk flat white",
    paraphrases: ["a flat white made with oat milk", "an oat flat white"],
    rival: "a plain black filter coffee",
    facets: [
      f(
        "an extra shot",
        "{name} asks for an extra shot in the morning coffee.",
        "I always ask for an extra shot in my morning coffee.",
      ),
      f("no sugar", "{name} takes coffee with no sugar.", "I take my coffee with no sugar."),
      f("a small cup", "{name} orders coffee in a small cup.", "I order my coffee in a small cup."),
    ],
    contexts: [
      { condition: "on office days", value: "an oat milk flat white" },
      { condition: "on long drives", value: "a large iced americano" },
    ],
    periods: [
      { when: "since cutting out dairy", value: "an oat milk flat white", past: false },
      { when: "during the university years", value: "a caramel latte", past: true },
    ],
    distractors: ["a matcha latte", "a double espresso", "a chai latte"],
  },
  {
    id: "reading-format",
    source: "user-related",
    topic: "Literature",
    about: "the reading list for the year",
    attribute: "preferred reading format",
    value: "paperbacks from the local library",
    paraphrases: ["borrowed paperback copies", "library paperbacks"],
    rival: "e-books on a tablet",
    facets: [
      f("short story collections", "{name} enjoys short story collections.", "I enjoy short story collections."),
      f("translated fiction", "{name} likes reading translated fiction.", "I like reading translated fiction."),
      f("one book a fortnight", "{name} aims to finish one book a fortnight.", "I aim to finish one book a fortnight."),
    ],
    contexts: [
      { condition: "at home", value: "paperbacks from the local library" },
      { condition: "on the commute", value: "audiobooks" },
    ],
    periods: [
      { when: "since joining the neighbourhood book club", value: "paperbacks from the local library", past: false },
      { when: "while living abroad", value: "e-books on a tablet", past: true },
    ],
    distractors: ["hardback first editions", "graphic novels", "magazine serials"],
  },
  {
    id: "meeting-notes",
    source: "user-related",
    topic: "Work",
    about: "the team meeting notes",
    attribute: "preferred format for meeting notes",
    value: "a one-page bullet summary",
    paraphrases: ["a single page of bullet points", "a short bulleted one-pager"],
    rival: "a full written transcript",
    facets: [
      f(
        "decisions listed first",
        "{name} wants the decisions listed first in meeting notes.",
        "I want the decisions listed first in the meeting notes.",
      ),
      f(
        "an owner named next to each action item",
        "{name} wants an owner named next to each action item.",
        "I want an owner named next to each action item.",
      ),
      f("sent within a day", "{name} wants meeting notes sent within a day.", "I want the notes sent within a day."),
    ],
    contexts: [
      { condition: "for internal stand-ups", value: "a one-page bullet summary" },
      { condition: "for client meetings", value: "a formal minutes document" },
    ],
    periods: [
      { when: "since becoming team lead", value: "a one-page bullet summary", past: false },
      { when: "at the previous company", value: "a shared slide deck", past: true },
    ],
    distractors: ["a voice memo", "a chat thread recap", "a spreadsheet log"],
  },
  {
    id: "holiday-style",
    source: "user-related",
    topic: "Travel",
    about: "the summer holiday plans",
    attribute: "preferred kind of holiday",
    value: "slow trips by train",
    paraphrases: ["unhurried rail journeys", "travelling slowly by rail"],
    rival: "packed city-hopping flights",
    facets: [
      f("small guesthouses", "{name} likes staying in small guesthouses.", "I like staying in small guesthouses."),
      f(
        "at least three nights in each place",
        "{name} stays at least three nights in each place.",
        "I stay at least three nights in each place.",
      ),
      f(
        "one museum a day at most",
        "{name} visits one museum a day at most on holiday.",
        "I visit one museum a day at most on holiday.",
      ),
    ],
    contexts: [
      { condition: "for summer holidays", value: "slow trips by train" },
      { condition: "for work conferences", value: "short direct flights" },
    ],
    periods: [
      { when: "since the kids started school", value: "slow trips by train", past: false },
      { when: "in the backpacking years", value: "overnight buses", past: true },
    ],
    distractors: ["cruise holidays", "all-inclusive resorts", "camping road trips"],
  },
  {
    id: "study-routine",
    source: "user-related",
    topic: "Languages",
    about: "the Portuguese study routine",
    attribute: "preferred way to study Portuguese",
    value: "twenty minutes of flashcards each morning",
    paraphrases: ["a short daily flashcard session before work", "morning flashcards for twenty minutes"],
    rival: "one long weekend class",
    facets: [
      f(
        "a weekly call with a Portuguese tutor",
        "{name} has a weekly call with a Portuguese tutor.",
        "I have a weekly call with a Portuguese tutor.",
      ),
      f(
        "Portuguese podcasts on walks",
        "{name} listens to Portuguese podcasts on walks.",
        "I listen to Portuguese podcasts on walks.",
      ),
      f(
        "a Portuguese vocabulary notebook",
        "{name} keeps a Portuguese vocabulary notebook.",
        "I keep a Portuguese vocabulary notebook.",
      ),
    ],
    contexts: [
      { condition: "on workdays", value: "twenty minutes of flashcards each morning" },
      { condition: "on holidays in Lisbon", value: "conversation practice with locals" },
    ],
    periods: [
      { when: "since the exam date was set", value: "twenty minutes of flashcards each morning", past: false },
      { when: "when first starting out", value: "a phone app game", past: true },
    ],
    distractors: ["grammar workbooks", "subtitled soap operas", "evening group lessons"],
  },
  {
    id: "plant-care",
    source: "user-related",
    topic: "Home",
    about: "the balcony garden",
    attribute: "watering schedule for the balcony plants",
    value: "every other evening",
    paraphrases: ["on alternate evenings", "every second evening"],
    rival: "twice a day",
    facets: [
      f(
        "rainwater from a barrel",
        "{name} waters the balcony plants with rainwater from a barrel.",
        "I water the balcony plants with rainwater from a barrel.",
      ),
      f(
        "herbs in the shady corner",
        "{name} keeps the herbs in the shady corner of the balcony.",
        "I keep the herbs in the shady corner of the balcony.",
      ),
      f(
        "liquid feed once a month",
        "{name} gives the balcony plants liquid feed once a month.",
        "I give the balcony plants liquid feed once a month.",
      ),
    ],
    contexts: [
      { condition: "in summer", value: "every other evening" },
      { condition: "in winter", value: "once a week" },
    ],
    periods: [
      { when: "since installing the drip tray", value: "every other evening", past: false },
      { when: "in the first season", value: "every morning", past: true },
    ],
    distractors: ["only at weekends", "every third day", "whenever the soil cracks"],
  },
  {
    id: "budget-tool",
    source: "user-related",
    topic: "Finance",
    about: "the household budget",
    attribute: "preferred budgeting method",
    value: "a shared spreadsheet updated every Friday",
    paraphrases: ["a Friday update of the shared spreadsheet", "the weekly shared spreadsheet"],
    rival: "a paid budgeting app with automatic bank sync",
    facets: [
      f(
        "a 10% savings line",
        "{name} keeps a 10% savings line in the budget.",
        "I keep a 10% savings line in the budget.",
      ),
      f("groceries at 400 a month", "{name} caps groceries at 400 a month.", "I cap groceries at 400 a month."),
      f("a separate holiday fund", "{name} keeps a separate holiday fund.", "I keep a separate holiday fund."),
    ],
    contexts: [
      { condition: "for household costs", value: "a shared spreadsheet updated every Friday" },
      { condition: "for the side business", value: "accounting software with receipts scanning" },
    ],
    periods: [
      { when: "since moving in with a partner", value: "a shared spreadsheet updated every Friday", past: false },
      { when: "when living alone", value: "cash envelopes", past: true },
    ],
    distractors: ["a paper ledger", "a banking app's charts", "no budget at all"],
  },
  {
    id: "music-practice",
    source: "user-related",
    topic: "Music",
    about: "the piano practice plan",
    attribute: "preferred piano practice routine",
    value: "scales first, then one piece for half an hour",
    paraphrases: [
      "a scales warm-up followed by thirty minutes on one piece",
      "scales and then a single piece for 30 minutes",
    ],
    rival: "free improvisation without any scales",
    facets: [
      f(
        "a metronome set to 80",
        "{name} practises with a metronome set to 80.",
        "I practise with a metronome set to 80.",
      ),
      f(
        "each piano practice session",
        "{name} records each piano practice session.",
        "I record each piano practice session.",
      ),
      f(
        "a piano lesson every second Thursday",
        "{name} has a piano lesson every second Thursday.",
        "I have a piano lesson every second Thursday.",
      ),
    ],
    contexts: [
      { condition: "before lessons", value: "scales first, then one piece for half an hour" },
      { condition: "on relaxed weekends", value: "sight-reading new songs for fun" },
    ],
    periods: [
      {
        when: "since preparing for the grade exam",
        value: "scales first, then one piece for half an hour",
        past: false,
      },
      { when: "as a teenager", value: "playing pop songs by ear", past: true },
    ],
    distractors: ["only technical exercises", "duet practice", "theory worksheets"],
  },
  {
    id: "diet-lunch",
    source: "user-related",
    topic: "Cuisine",
    about: "the weekday lunch plan",
    attribute: "preferred weekday lunch",
    value: "a lentil salad prepared on Sunday",
    paraphrases: ["the Sunday-prepped lentil salad", "a batch-cooked lentil salad"],
    rival: "a takeaway burger from the food court",
    facets: [
      f("nuts at lunch", "{name} avoids nuts at lunch.", "I avoid nuts at lunch."),
      f("a piece of fruit", "{name} adds a piece of fruit to lunch.", "I add a piece of fruit to my lunch."),
      f("lunch away from the desk", "{name} eats lunch away from the desk.", "I eat lunch away from the desk."),
    ],
    contexts: [
      { condition: "on office days", value: "a lentil salad prepared on Sunday" },
      { condition: "on home-office days", value: "a warm vegetable soup" },
    ],
    periods: [
      { when: "since the cholesterol check-up", value: "a lentil salad prepared on Sunday", past: false },
      { when: "during the last project crunch", value: "canteen pasta", past: true },
    ],
    distractors: ["sushi boxes", "a cheese sandwich", "instant noodles"],
  },
  {
    id: "workspace",
    source: "user-related",
    topic: "Productivity",
    about: "the home office set-up",
    attribute: "preferred desk set-up",
    value: "a standing desk by the window",
    paraphrases: ["the window-side standing desk", "standing at a desk next to the window"],
    rival: "a low desk in the basement",
    facets: [
      f("a single large monitor", "{name} uses a single large monitor.", "I use a single large monitor."),
      f("a paper planner", "{name} keeps a paper planner on the desk.", "I keep a paper planner on the desk."),
      f(
        "noise-cancelling headphones",
        "{name} works with noise-cancelling headphones.",
        "I work with noise-cancelling headphones.",
      ),
    ],
    contexts: [
      { condition: "for focused writing", value: "a standing desk by the window" },
      { condition: "for video calls", value: "the small desk in the quiet bedroom" },
    ],
    periods: [
      { when: "since the back pain started", value: "a standing desk by the window", past: false },
      { when: "in the first remote year", value: "the kitchen table", past: true },
    ],
    distractors: ["the sofa with a laptop", "a café corner", "a co-working hot desk"],
  },
  {
    id: "bridge-length",
    source: "user-unrelated",
    topic: "Geography",
    about: "the Kettleby river crossings",
    attribute: "length of the Halvorsen Bridge in Kettleby",
    value: "412 metres",
    paraphrases: ["just over 400 metres (412 m)", "412 m"],
    rival: "385 metres",
    facets: [
      f(
        "opened in 1931",
        "The Halvorsen Bridge in Kettleby opened in 1931.",
        "I read that the Halvorsen Bridge in Kettleby opened in 1931.",
      ),
      f(
        "the engineer Ada Marrow",
        "The Halvorsen Bridge was designed by the engineer Ada Marrow.",
        "I read that the Halvorsen Bridge was designed by the engineer Ada Marrow.",
      ),
      f(
        "Kettleby's only tram line",
        "The Halvorsen Bridge carries Kettleby's only tram line.",
        "Apparently the Halvorsen Bridge carries Kettleby's only tram line.",
      ),
    ],
    contexts: [
      { condition: "measured along the road deck", value: "412 metres" },
      { condition: "measured including the approach ramps", value: "530 metres" },
    ],
    periods: [
      { when: "after the 1998 extension", value: "412 metres", past: false },
      { when: "when it opened in 1931", value: "360 metres", past: true },
      { when: "after the 1962 widening", value: "390 metres", past: true },
    ],
    distractors: ["450 metres", "298 metres", "505 metres"],
  },
  {
    id: "museum-director",
    source: "user-unrelated",
    topic: "Culture",
    about: "the Brennmoor Museum of Clocks",
    attribute: "director of the Brennmoor Museum of Clocks",
    value: "Tomasz Welland",
    paraphrases: ["Dr Tomasz Welland", "T. Welland"],
    rival: "Ines Caravel",
    facets: [
      f(
        "founded in 1888",
        "The Brennmoor Museum of Clocks was founded in 1888.",
        "I read that the Brennmoor Museum of Clocks was founded in 1888.",
      ),
      f(
        "about 2,300 clocks",
        "The Brennmoor Museum of Clocks holds about 2,300 clocks.",
        "Apparently the Brennmoor Museum of Clocks holds about 2,300 clocks.",
      ),
      f(
        "closed on Mondays",
        "The Brennmoor Museum of Clocks is closed on Mondays.",
        "I noticed the Brennmoor Museum of Clocks is closed on Mondays.",
      ),
    ],
    contexts: [
      { condition: "for the main building", value: "Tomasz Welland" },
      { condition: "for the restoration workshop", value: "Greta Holm" },
    ],
    periods: [
      { when: "since 2021", value: "Tomasz Welland", past: false },
      { when: "from 2009 to 2021", value: "Marguerite Osei", past: true },
      { when: "in the 1990s", value: "Felix Brandt", past: true },
    ],
    distractors: ["Oskar Lindqvist", "Hana Morel", "Petra Vos"],
  },
  {
    id: "festival-dates",
    source: "user-unrelated",
    topic: "Events",
    about: "the Larkspur Valley Lantern Festival",
    attribute: "month of the Larkspur Valley Lantern Festival",
    value: "October",
    paraphrases: ["mid-October", "in October each year"],
    rival: "March",
    facets: [
      f(
        "about 40,000 visitors",
        "The Larkspur Valley Lantern Festival draws about 40,000 visitors.",
        "I read that the Larkspur Valley Lantern Festival draws about 40,000 visitors.",
      ),
      f(
        "lasts three nights",
        "The Larkspur Valley Lantern Festival lasts three nights.",
        "Apparently the Larkspur Valley Lantern Festival lasts three nights.",
      ),
      f(
        "ends with a river parade",
        "The Larkspur Valley Lantern Festival ends with a river parade.",
        "I heard the Larkspur Valley Lantern Festival ends with a river parade.",
      ),
    ],
    contexts: [
      { condition: "for the main valley event", value: "October" },
      { condition: "for the smaller winter edition", value: "January" },
    ],
    periods: [
      { when: "since 2019", value: "October", past: false },
      { when: "before 2019", value: "September", past: true },
      { when: "in its first year, 1976", value: "August", past: true },
    ],
    distractors: ["June", "December", "May"],
  },
  {
    id: "library-hours",
    source: "user-unrelated",
    topic: "Society",
    about: "the Orrin Street Public Library",
    attribute: "Saturday closing time of the Orrin Street Public Library",
    value: "5 pm",
    paraphrases: ["17:00", "five in the afternoon"],
    rival: "1 pm",
    facets: [
      f(
        "a maker space on the second floor",
        "The Orrin Street Public Library has a maker space on the second floor.",
        "I read that the Orrin Street Public Library has a maker space on the second floor.",
      ),
      f(
        "free Wi-Fi",
        "The Orrin Street Public Library offers free Wi-Fi.",
        "Apparently the Orrin Street Public Library offers free Wi-Fi.",
      ),
      f(
        "a seed lending shelf",
        "The Orrin Street Public Library runs a seed lending shelf.",
        "I noticed the Orrin Street Public Library runs a seed lending shelf.",
      ),
    ],
    contexts: [
      { condition: "for the main reading room", value: "5 pm" },
      { condition: "for the children's wing", value: "3 pm" },
    ],
    periods: [
      { when: "since the 2023 budget increase", value: "5 pm", past: false },
      { when: "during the 2020 renovation", value: "noon", past: true },
      { when: "before 2015", value: "4 pm", past: true },
    ],
    distractors: ["6 pm", "2 pm", "7 pm"],
  },
  {
    id: "rail-line",
    source: "user-unrelated",
    topic: "Transport",
    about: "the Saltmarsh Coast railway",
    attribute: "number of stations on the Saltmarsh Coast railway",
    value: "14 stations",
    paraphrases: ["fourteen stations", "14 stops"],
    rival: "9 stations",
    facets: [
      f(
        "runs 86 kilometres",
        "The Saltmarsh Coast railway runs 86 kilometres.",
        "I read that the Saltmarsh Coast railway runs 86 kilometres.",
      ),
      f(
        "electrified in 1967",
        "The Saltmarsh Coast railway was electrified in 1967.",
        "Apparently the Saltmarsh Coast railway was electrified in 1967.",
      ),
      f(
        "ends at Gull Point",
        "The Saltmarsh Coast railway ends at Gull Point.",
        "I noticed the Saltmarsh Coast railway ends at Gull Point.",
      ),
    ],
    contexts: [
      { condition: "for the all-stations service", value: "14 stations" },
      { condition: "for the express service", value: "5 stations" },
    ],
    periods: [
      { when: "since the 2016 reopening of Fennick Halt", value: "14 stations", past: false },
      { when: "between 1980 and 2016", value: "13 stations", past: true },
      { when: "in 1950", value: "19 stations", past: true },
    ],
    distractors: ["11 stations", "16 stations", "22 stations"],
  },
  {
    id: "school-mascot",
    source: "user-unrelated",
    topic: "Education",
    about: "Pinecrest Academy",
    attribute: "mascot of Pinecrest Academy",
    value: "the grey heron",
    paraphrases: ["a heron", "Harriet the Heron"],
    rival: "the red fox",
    facets: [
      f(
        "founded in 1954",
        "Pinecrest Academy was founded in 1954.",
        "I read that Pinecrest Academy was founded in 1954.",
      ),
      f(
        "about 900 pupils",
        "Pinecrest Academy has about 900 pupils.",
        "Apparently Pinecrest Academy has about 900 pupils.",
      ),
      f(
        "colours are green and silver",
        "Pinecrest Academy's colours are green and silver.",
        "I noticed Pinecrest Academy's colours are green and silver.",
      ),
    ],
    contexts: [
      { condition: "for the sports teams", value: "the grey heron" },
      { condition: "for the debating society", value: "the barn owl" },
    ],
    periods: [
      { when: "since the 2010 rebrand", value: "the grey heron", past: false },
      { when: "before 2010", value: "the pine marten", past: true },
      { when: "in the founding years", value: "the oak tree emblem", past: true },
    ],
    distractors: ["the golden eagle", "the badger", "the kingfisher"],
  },
  {
    id: "lake-depth",
    source: "user-unrelated",
    topic: "Nature",
    about: "Lake Vessary",
    attribute: "maximum depth of Lake Vessary",
    value: "63 metres",
    paraphrases: ["63 m", "sixty-three metres"],
    rival: "41 metres",
    facets: [
      f(
        "fed by the Arden stream",
        "Lake Vessary is fed by the Arden stream.",
        "I read that Lake Vessary is fed by the Arden stream.",
      ),
      f(
        "freezes over most winters",
        "Lake Vessary freezes over most winters.",
        "Apparently Lake Vessary freezes over most winters.",
      ),
      f(
        "a population of arctic char",
        "Lake Vessary is home to a population of arctic char.",
        "I noticed Lake Vessary is home to a population of arctic char.",
      ),
    ],
    contexts: [
      { condition: "in the northern basin", value: "63 metres" },
      { condition: "in the southern basin", value: "22 metres" },
    ],
    periods: [
      { when: "according to the 2022 sonar survey", value: "63 metres", past: false },
      { when: "according to the 1935 plumb-line survey", value: "70 metres", past: true },
      { when: "according to the 1978 survey", value: "66 metres", past: true },
    ],
    distractors: ["88 metres", "35 metres", "52 metres"],
  },
  {
    id: "company-ceo",
    source: "user-unrelated",
    topic: "Business",
    about: "Corvane Robotics",
    attribute: "chief executive of Corvane Robotics",
    value: "Lena Okoro",
    paraphrases: ["L. Okoro", "Ms Lena Okoro"],
    rival: "Marcus Feld",
    facets: [
      f(
        "based in Tamsworth",
        "Corvane Robotics is based in Tamsworth.",
        "I read that Corvane Robotics is based in Tamsworth.",
      ),
      f(
        "makes warehouse robots",
        "Corvane Robotics makes warehouse robots.",
        "Apparently Corvane Robotics makes warehouse robots.",
      ),
      f(
        "about 1,200 employees",
        "Corvane Robotics has about 1,200 employees.",
        "I noticed Corvane Robotics has about 1,200 employees.",
      ),
    ],
    contexts: [
      { condition: "for the parent company", value: "Lena Okoro" },
      { condition: "for the European subsidiary", value: "Jonas Reiter" },
    ],
    periods: [
      { when: "since 2022", value: "Lena Okoro", past: false },
      { when: "from 2015 to 2022", value: "Priya Sandhu", past: true },
      { when: "at its founding in 2009", value: "Walter Grimes", past: true },
    ],
    distractors: ["Sven Aalto", "Carla Mendes", "Yusuf Demir"],
  },
];

/** A user's seed file: a JSON array of seeds in the shape of ours (docs/synth.md). */
export function readSeedFile(path: string): Seed[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DataError(`not a readable JSON file (${(error as Error).message})`, { file: path });
  }
  if (!Array.isArray(raw)) throw new DataError("expected a JSON array of seeds", { file: path, record: "(root)" });
  const ids = new Set<string>();
  return raw.map((item, i) => {
    const parsed = Seed.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0] as z.core.$ZodIssue;
      throw new DataError(issue.message, {
        file: path,
        record: `seed [${i}]`,
        field: issue.path.join(".") || undefined,
      });
    }
    if (ids.has(parsed.data.id))
      throw new DataError(`duplicate seed id "${parsed.data.id}"`, { file: path, record: `seed [${i}]`, field: "id" });
    ids.add(parsed.data.id);
    return parsed.data;
  });
}
