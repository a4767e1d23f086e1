/**
 * Memora's seed inventory, in our own words: the ten personas of the paper's
 * Table 6 (arXiv 2604.20006 App. A) with their preference archetypes, and the
 * pools the simulator draws memories from. The paper's inventory is larger
 * (Table 7: 440 movie options, 260 todo items…); ours is smaller and
 * compositional, which is enough for the operation mix and the question
 * templates to behave as they do in the release.
 */

export const PREFERENCE_DOMAINS = ["movies", "books", "music", "travel"] as const;
export type PreferenceDomain = (typeof PREFERENCE_DOMAINS)[number];

/** Subcategories per domain, as the release's `operation_details.subcategory` spells them. */
export const SUBCATEGORIES: Readonly<Record<PreferenceDomain, readonly string[]>> = {
  movies: ["genres", "directors", "actors", "already_watched_list"],
  books: ["authors", "topics", "already_read_list"],
  music: ["genres", "artists", "decades", "already_listened_list"],
  travel: ["destination_types", "regions", "climates", "already_visited_list"],
};

type Pools = Readonly<Record<string, readonly string[]>>;

/** Archetype → subcategory → items. Likes come from the persona's archetype, dislikes from the others. */
export const ARCHETYPES: Readonly<Record<PreferenceDomain, Readonly<Record<string, Pools>>>> = {
  movies: {
    action_movie_fan: {
      genres: ["heist thrillers", "martial arts films", "spy action", "disaster epics", "car chase films"],
      directors: ["John McTiernan", "Kathryn Bigelow", "Chad Stahelski", "Tony Scott", "John Woo"],
      actors: ["Keanu Reeves", "Charlize Theron", "Jason Statham", "Michelle Yeoh", "Idris Elba"],
      already_watched_list: ["Heat", "Mad Max: Fury Road", "Speed", "The Raid", "Point Break"],
    },
    indie_film_fan: {
      genres: ["mumblecore", "coming-of-age dramas", "quiet character studies", "offbeat comedies", "slow cinema"],
      directors: ["Kelly Reichardt", "Sean Baker", "Greta Gerwig", "Jim Jarmusch", "Celine Song"],
      actors: ["Greta Lee", "Adam Driver", "Frances McDormand", "Paul Mescal", "Lily Gladstone"],
      already_watched_list: ["Paterson", "The Florida Project", "Past Lives", "Aftersun", "First Cow"],
    },
    classic_movie_fan: {
      genres: ["film noir", "screwball comedies", "golden-age musicals", "silent films", "classic westerns"],
      directors: ["Billy Wilder", "Howard Hawks", "Nicholas Ray", "Fritz Lang", "Ernst Lubitsch"],
      actors: ["James Stewart", "Joan Crawford", "Cary Grant", "Barbara Stanwyck", "Humphrey Bogart"],
      already_watched_list: ["Double Indemnity", "His Girl Friday", "Rear Window", "The Apartment", "Metropolis"],
    },
    horror_fan: {
      genres: ["folk horror", "slashers", "haunted house films", "body horror", "creature features"],
      directors: ["Ari Aster", "Jordan Peele", "Robert Eggers", "Mike Flanagan", "Jennifer Kent"],
      actors: ["Toni Collette", "Mia Goth", "Florence Pugh", "Anya Taylor-Joy", "Jamie Lee Curtis"],
      already_watched_list: ["The Witch", "Hereditary", "Get Out", "The Babadook", "It Follows"],
    },
    sci_fi_fan: {
      genres: ["first contact", "cyberpunk", "time travel", "space exploration", "post-apocalyptic"],
      directors: ["Denis Villeneuve", "Alex Garland", "Duncan Jones", "Rian Johnson", "Andrei Tarkovsky"],
      actors: ["Amy Adams", "Oscar Isaac", "Sam Rockwell", "Rebecca Ferguson", "Tilda Swinton"],
      already_watched_list: ["Arrival", "Moon", "Ex Machina", "Interstellar", "Solaris"],
    },
  },
  books: {
    classic_literature_fan: {
      authors: ["George Eliot", "Leo Tolstoy", "Edith Wharton", "Thomas Hardy", "Virginia Woolf"],
      topics: ["Victorian society", "epistolary novels", "family sagas", "moral dilemmas", "Russian realism"],
      already_read_list: ["Middlemarch", "Anna Karenina", "The Age of Innocence", "Persuasion", "Mrs Dalloway"],
    },
    non_fiction_fan: {
      authors: ["Mary Roach", "Michael Lewis", "Siddhartha Mukherjee", "Robert Caro", "Barbara Ehrenreich"],
      topics: ["behavioural economics", "history of science", "business biographies", "urban planning", "geopolitics"],
      already_read_list: ["The Gene", "Moneyball", "The Power Broker", "Thinking, Fast and Slow", "Sapiens"],
    },
    fiction_fan: {
      authors: ["Sally Rooney", "Kazuo Ishiguro", "Ann Patchett", "Colson Whitehead", "Elena Ferrante"],
      topics: [
        "contemporary fiction",
        "literary mysteries",
        "multigenerational stories",
        "campus novels",
        "small-town life",
      ],
      already_read_list: [
        "Normal People",
        "Klara and the Sun",
        "The Dutch House",
        "The Nickel Boys",
        "My Brilliant Friend",
      ],
    },
    fantasy_sci_fi_fan: {
      authors: ["Ann Leckie", "Alastair Reynolds", "N. K. Jemisin", "Ted Chiang", "Becky Chambers"],
      topics: ["space opera", "parallel universes", "hard science fiction", "epic fantasy", "artificial minds"],
      already_read_list: ["Ancillary Justice", "The Fifth Season", "Exhalation", "Hyperion", "Children of Time"],
    },
    thriller_fan: {
      authors: ["Tana French", "Lee Child", "Gillian Flynn", "Michael Connelly", "Mick Herron"],
      topics: ["police procedurals", "espionage", "legal thrillers", "psychological suspense", "cold cases"],
      already_read_list: ["In the Woods", "Gone Girl", "Slow Horses", "The Lincoln Lawyer", "Killing Floor"],
    },
  },
  music: {
    jazz_classical_fan: {
      genres: ["bebop", "baroque chamber music", "modal jazz", "romantic symphonies", "string quartets"],
      artists: ["Bill Evans", "Yo-Yo Ma", "Miles Davis", "Hilary Hahn", "Thelonious Monk"],
      decades: ["1950s", "1960s", "1920s", "1890s", "1970s"],
      already_listened_list: [
        "Kind of Blue",
        "The Goldberg Variations",
        "Waltz for Debby",
        "A Love Supreme",
        "The Four Seasons",
      ],
    },
    indie_alternative_fan: {
      genres: ["shoegaze", "indie folk", "post-punk revival", "dream pop", "lo-fi rock"],
      artists: ["Phoebe Bridgers", "Big Thief", "The National", "Beach House", "Courtney Barnett"],
      decades: ["1990s", "2000s", "2010s", "1980s", "2020s"],
      already_listened_list: ["Punisher", "Funeral", "Bloom", "Boxer", "Loveless"],
    },
    pop_mainstream_fan: {
      genres: ["synth-pop", "dance pop", "pop ballads", "K-pop", "soft rock"],
      artists: ["Dua Lipa", "Harry Styles", "Taylor Swift", "Bruno Mars", "Robyn"],
      decades: ["1980s", "2010s", "2000s", "1990s", "2020s"],
      already_listened_list: ["Future Nostalgia", "1989", "Body Talk", "Thriller", "24K Magic"],
    },
    rock_metal_fan: {
      genres: ["classic rock", "progressive metal", "grunge", "hard rock", "stoner rock"],
      artists: ["Foo Fighters", "Mastodon", "Led Zeppelin", "Gojira", "Queens of the Stone Age"],
      decades: ["1970s", "1990s", "1980s", "2000s", "1960s"],
      already_listened_list: ["Nevermind", "Leviathan", "Physical Graffiti", "Paranoid", "Songs for the Deaf"],
    },
    electronic_ambient_fan: {
      genres: ["deep house", "ambient", "drum and bass", "downtempo", "techno"],
      artists: ["Bonobo", "Aphex Twin", "Jon Hopkins", "Four Tet", "Floating Points"],
      decades: ["1990s", "2010s", "2000s", "1980s", "2020s"],
      already_listened_list: ["Tri Repetae", "Immunity", "Selected Ambient Works 85-92", "Migration", "Promises"],
    },
  },
  travel: {
    nature_fan: {
      destination_types: ["national parks", "coastal hikes", "lake cabins", "wildlife reserves", "mountain lodges"],
      regions: ["Patagonia", "the Scottish Highlands", "New Zealand's South Island", "Banff", "the Faroe Islands"],
      climates: ["cool and misty", "crisp alpine air", "mild spring weather", "temperate rainforest", "dry highlands"],
      already_visited_list: ["Yosemite", "Torres del Paine", "Lake District", "Olympic National Park", "Skye"],
    },
    luxury_traveller: {
      destination_types: ["spa resorts", "boutique hotels", "private villas", "river cruises", "fine-dining getaways"],
      regions: ["the Amalfi Coast", "the Maldives", "Kyoto", "the French Riviera", "Dubai"],
      climates: ["warm and sunny", "tropical", "dry Mediterranean", "balmy evenings", "sunny winters"],
      already_visited_list: ["Santorini", "Bora Bora", "Lake Como", "Monaco", "Mauritius"],
    },
    cultural_traveller: {
      destination_types: [
        "museum cities",
        "historic old towns",
        "art festivals",
        "architecture tours",
        "literary walks",
      ],
      regions: ["Andalusia", "central Mexico", "northern Italy", "Morocco", "Istanbul"],
      climates: ["mild autumn days", "warm evenings", "dry heat", "four distinct seasons", "breezy coastal air"],
      already_visited_list: ["Florence", "Seville", "Oaxaca", "Marrakech", "Vienna"],
    },
    urban_explorer: {
      destination_types: ["city breaks", "food markets", "startup hubs", "rooftop bars", "design districts"],
      regions: ["Tokyo", "Berlin", "Singapore", "New York", "Seoul"],
      climates: ["crisp city winters", "humid summers", "mild shoulder seasons", "cool evenings", "changeable weather"],
      already_visited_list: ["London", "Shanghai", "Barcelona", "Toronto", "Amsterdam"],
    },
    adventure_fan: {
      destination_types: [
        "trail running",
        "white-water rafting",
        "outdoor camping",
        "scuba diving",
        "via ferrata routes",
      ],
      regions: ["Alaska", "Iceland", "Nepal", "Costa Rica", "the Dolomites"],
      climates: ["challenging conditions", "cold and windy", "hot and humid", "high altitude", "rainy seasons"],
      already_visited_list: ["Everest Base Camp", "Moab", "Chamonix", "Queenstown", "Kilimanjaro"],
    },
  },
};

export interface Persona {
  /** The release's persona key (`software_engineer`). */
  key: string;
  title: string;
  archetypes: Readonly<Record<PreferenceDomain, string>>;
  /** Work vocabulary the todo, calendar and document pools are built from. */
  work: {
    systems: readonly string[];
    tasks: readonly string[];
    stakeholders: readonly string[];
    metrics: readonly string[];
    colleagues: readonly string[];
    meetings: readonly string[];
  };
  /** Daily step range. */
  steps: readonly [number, number];
}

const COLLEAGUES = [
  "Priya Nambiar",
  "Daniel Okafor",
  "Mei Tanaka",
  "Lucas Ferreira",
  "Sofia Lindqvist",
  "Omar Haddad",
  "Hannah Weiss",
  "Arjun Mehta",
];

export const PERSONAS: readonly Persona[] = [
  {
    key: "academic_researcher",
    title: "Academic Researcher",
    archetypes: {
      movies: "classic_movie_fan",
      books: "classic_literature_fan",
      music: "jazz_classical_fan",
      travel: "nature_fan",
    },
    work: {
      systems: ["field study", "grant application", "survey dataset", "lab protocol", "journal manuscript"],
      tasks: [
        "Draft the methods section",
        "Plan field work schedule",
        "Review student theses",
        "Clean the survey data",
        "Prepare lecture materials",
        "Submit the ethics amendment",
      ],
      stakeholders: [
        "Department Chair",
        "Research Ethics Board",
        "Graduate Students",
        "Funding Agency",
        "Co-investigators",
      ],
      metrics: ["survey response rate", "sample size", "citation count", "data collection time"],
      colleagues: COLLEAGUES,
      meetings: ["Lab group meeting", "Thesis committee meeting", "Grant review call"],
    },
    steps: [4000, 12000],
  },
  {
    key: "business_executive",
    title: "Business Executive",
    archetypes: {
      movies: "classic_movie_fan",
      books: "non_fiction_fan",
      music: "jazz_classical_fan",
      travel: "luxury_traveller",
    },
    work: {
      systems: [
        "regional expansion",
        "quarterly operating plan",
        "supplier network",
        "leadership offsite",
        "cost programme",
      ],
      tasks: [
        "Approve the Q3 budget",
        "Review the board deck",
        "Sign the vendor contracts",
        "Prepare the town hall remarks",
        "Call the regional directors",
        "Finalize the hiring plan",
      ],
      stakeholders: ["Board of Directors", "Regional Directors", "Finance Team", "Key Suppliers", "HR Leadership"],
      metrics: ["operating margin", "customer retention", "time to market", "cost per unit"],
      colleagues: COLLEAGUES,
      meetings: ["Board meeting", "Executive committee", "Investor call"],
    },
    steps: [5000, 11000],
  },
  {
    key: "content_writer",
    title: "Content Writer",
    archetypes: {
      movies: "indie_film_fan",
      books: "classic_literature_fan",
      music: "indie_alternative_fan",
      travel: "cultural_traveller",
    },
    work: {
      systems: ["editorial calendar", "brand style guide", "newsletter series", "long-form feature", "client blog"],
      tasks: [
        "Outline the feature article",
        "Edit the newsletter draft",
        "Pitch three blog ideas",
        "Update the style guide",
        "Interview the product lead",
        "Proofread the client copy",
      ],
      stakeholders: [
        "Managing Editor",
        "Client Marketing Team",
        "SEO Specialist",
        "Freelance Designers",
        "Readers Panel",
      ],
      metrics: ["newsletter open rate", "time on page", "organic traffic", "publishing cadence"],
      colleagues: COLLEAGUES,
      meetings: ["Editorial meeting", "Client check-in", "Content planning session"],
    },
    steps: [3500, 10000],
  },
  {
    key: "creative_designer",
    title: "Creative Designer",
    archetypes: {
      movies: "horror_fan",
      books: "fiction_fan",
      music: "indie_alternative_fan",
      travel: "cultural_traveller",
    },
    work: {
      systems: ["brand refresh", "packaging line", "design system", "exhibition booth", "mobile app redesign"],
      tasks: [
        "Sketch the logo variations",
        "Export the icon set",
        "Present the moodboard",
        "Revise the packaging mockups",
        "Prepare the print files",
        "Audit the colour palette",
      ],
      stakeholders: ["Art Director", "Client Brand Team", "Print Vendor", "Product Managers", "Copywriters"],
      metrics: ["design review turnaround", "asset reuse rate", "user satisfaction score", "revision rounds"],
      colleagues: COLLEAGUES,
      meetings: ["Design critique", "Client presentation", "Studio stand-up"],
    },
    steps: [4000, 12000],
  },
  {
    key: "financial_analyst",
    title: "Financial Analyst",
    archetypes: {
      movies: "sci_fi_fan",
      books: "non_fiction_fan",
      music: "jazz_classical_fan",
      travel: "luxury_traveller",
    },
    work: {
      systems: ["forecast model", "variance report", "valuation model", "cash flow dashboard", "risk register"],
      tasks: [
        "Update the revenue forecast",
        "Reconcile the expense accounts",
        "Build the sensitivity table",
        "Review the audit findings",
        "Refresh the KPI dashboard",
        "Prepare the month-end pack",
      ],
      stakeholders: ["CFO", "Controllers", "Business Unit Heads", "External Auditors", "Treasury Team"],
      metrics: ["forecast accuracy", "days sales outstanding", "close cycle time", "working capital"],
      colleagues: COLLEAGUES,
      meetings: ["Forecast review", "Month-end close meeting", "Audit committee prep"],
    },
    steps: [3000, 10000],
  },
  {
    key: "management_consultant",
    title: "Management Consultant",
    archetypes: {
      movies: "classic_movie_fan",
      books: "non_fiction_fan",
      music: "pop_mainstream_fan",
      travel: "cultural_traveller",
    },
    work: {
      systems: [
        "operating model review",
        "client transformation roadmap",
        "market entry study",
        "process redesign",
        "benchmarking survey",
      ],
      tasks: [
        "Draft the steering committee deck",
        "Run the stakeholder interviews",
        "Synthesize the survey results",
        "Build the issue tree",
        "Prepare the workshop agenda",
        "Update the engagement tracker",
      ],
      stakeholders: [
        "Client Sponsor",
        "Engagement Partner",
        "Client Operations Team",
        "Steering Committee",
        "Analyst Team",
      ],
      metrics: ["process cycle time", "cost savings", "adoption rate", "customer satisfaction"],
      colleagues: COLLEAGUES,
      meetings: ["Steering committee", "Client workshop", "Team problem-solving session"],
    },
    steps: [5000, 13000],
  },
  {
    key: "marketing_manager",
    title: "Marketing Manager",
    archetypes: {
      movies: "indie_film_fan",
      books: "fiction_fan",
      music: "pop_mainstream_fan",
      travel: "urban_explorer",
    },
    work: {
      systems: [
        "product launch campaign",
        "loyalty programme",
        "paid social budget",
        "brand awareness study",
        "webinar series",
      ],
      tasks: [
        "Brief the creative agency",
        "Review the campaign metrics",
        "Plan the launch timeline",
        "Approve the ad copy",
        "Update the persona research",
        "Schedule the social posts",
      ],
      stakeholders: [
        "Product Marketing",
        "Creative Agency",
        "Sales Leadership",
        "Customer Insights Team",
        "Regional Marketers",
      ],
      metrics: ["cost per acquisition", "conversion rate", "brand awareness", "marketing qualified leads"],
      colleagues: COLLEAGUES,
      meetings: ["Campaign review", "Agency briefing", "Marketing stand-up"],
    },
    steps: [4500, 12000],
  },
  {
    key: "sales_manager",
    title: "Sales Manager",
    archetypes: {
      movies: "action_movie_fan",
      books: "thriller_fan",
      music: "rock_metal_fan",
      travel: "urban_explorer",
    },
    work: {
      systems: ["enterprise pipeline", "territory plan", "partner channel", "renewal programme", "sales playbook"],
      tasks: [
        "Review the pipeline forecast",
        "Coach the new account executives",
        "Prepare the client proposal",
        "Update the CRM notes",
        "Plan the territory visits",
        "Negotiate the renewal terms",
      ],
      stakeholders: ["Account Executives", "Sales Operations", "Key Clients", "Channel Partners", "VP of Sales"],
      metrics: ["win rate", "average deal size", "sales cycle length", "quota attainment"],
      colleagues: COLLEAGUES,
      meetings: ["Pipeline review", "Client negotiation", "Sales kickoff"],
    },
    steps: [6000, 14000],
  },
  {
    key: "software_engineer",
    title: "Software Engineer",
    archetypes: {
      movies: "sci_fi_fan",
      books: "fantasy_sci_fi_fan",
      music: "electronic_ambient_fan",
      travel: "adventure_fan",
    },
    work: {
      systems: ["checkout service", "order routing engine", "streaming pipeline", "mobile SDK", "search API"],
      tasks: [
        "Refactor legacy code",
        "Optimize database queries",
        "Configure development environment",
        "Write integration tests",
        "Review the pull requests",
        "Fix the flaky build",
      ],
      stakeholders: [
        "Engineering Leadership",
        "QA and Testing Team",
        "Data Engineering Team",
        "Product Management",
        "Site Reliability Team",
      ],
      metrics: ["p95 latency", "error rate", "deployment frequency", "test coverage"],
      colleagues: COLLEAGUES,
      meetings: ["Sprint planning meeting", "Architecture review", "Incident retrospective"],
    },
    steps: [4000, 15000],
  },
  {
    key: "startup_founder",
    title: "Startup Founder",
    archetypes: {
      movies: "sci_fi_fan",
      books: "non_fiction_fan",
      music: "electronic_ambient_fan",
      travel: "urban_explorer",
    },
    work: {
      systems: ["seed round", "product roadmap", "beta programme", "hiring pipeline", "go-to-market plan"],
      tasks: [
        "Update the investor deck",
        "Interview the design candidates",
        "Ship the beta release",
        "Review the burn rate",
        "Call the pilot customers",
        "Draft the board update",
      ],
      stakeholders: ["Lead Investors", "Co-founders", "Pilot Customers", "Advisory Board", "Early Employees"],
      metrics: ["monthly recurring revenue", "user activation", "churn rate", "runway"],
      colleagues: COLLEAGUES,
      meetings: ["Investor update call", "Co-founder sync", "Customer discovery call"],
    },
    steps: [5000, 13000],
  },
];

export const PERSONAL_TASKS: readonly string[] = [
  "Buy groceries",
  "Exercise for 30 minutes",
  "Schedule car maintenance",
  "Setup home network security",
  "Pay the electricity bill",
  "Call the dentist",
  "Renew the passport",
  "Water the plants",
  "Back up the laptop",
  "Book a haircut",
  "Return the library card",
  "Clean out the garage",
];

/** Personal calendar events; work events come from the persona's meetings. */
export const PERSONAL_EVENTS: ReadonlyArray<{ type: string; name: string }> = [
  { type: "birthdays", name: "Mom's birthday" },
  { type: "birthdays", name: "Best friend's birthday dinner" },
  { type: "personal_appointments", name: "Mechanic visit" },
  { type: "personal_appointments", name: "Dentist appointment" },
  { type: "personal_appointments", name: "Annual physical" },
  { type: "social_events", name: "Neighbourhood barbecue" },
  { type: "social_events", name: "Board game night" },
  { type: "personal_appointments", name: "Apartment viewing" },
];

export const EXPENSE_TYPES = ["breakfast", "lunch", "dinner", "coffee", "grocery"] as const;
export type ExpenseType = (typeof EXPENSE_TYPES)[number];

/** Amount ranges in dollars per expense. */
export const EXPENSE_RANGES: Readonly<Record<ExpenseType, readonly [number, number]>> = {
  breakfast: [5, 15],
  lunch: [8, 22],
  dinner: [15, 45],
  coffee: [3, 9],
  grocery: [25, 95],
};

/**
 * Weekly budget ranges per food subcategory, grounded in seven days of spend
 * as the paper's simulator does (e.g. coffee [21–35], [35–49], [49–70]).
 */
export const BUDGET_RANGES: Readonly<Record<ExpenseType, ReadonlyArray<readonly [number, number]>>> = {
  breakfast: [
    [35, 49],
    [49, 70],
    [70, 105],
  ],
  lunch: [
    [56, 84],
    [84, 112],
    [112, 154],
  ],
  dinner: [
    [105, 175],
    [175, 245],
    [245, 315],
  ],
  coffee: [
    [21, 35],
    [35, 49],
    [49, 70],
  ],
  grocery: [
    [40, 70],
    [70, 110],
    [110, 160],
  ],
};

export const STEP_GOAL_RANGES: ReadonlyArray<readonly [number, number]> = [
  [4000, 6000],
  [6000, 8000],
  [8000, 10000],
  [10000, 12000],
  [12000, 15000],
];
