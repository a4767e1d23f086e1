/**
 * The offline extractor: rules and patterns, no model. It reads first-person
 * statements (and statements about a named other person) and proposes memories
 * for the patterns it knows: identity facts, residence and work, preferences with
 * their conditions, habits started or stopped, plans, scheduled items, dated
 * events and project decisions. Change cues ("now", "no longer", "switched to")
 * and time expressions resolved against the session date set the timelines.
 * Anything it does not recognise stays searchable as a raw turn.
 */
import { Slices } from "../slices.ts";
import { resolveTimeExpression } from "../time.ts";
import { type LedgerTurn, type MemoryDraft, type MemoryKind, type Subject, USER } from "../types.ts";
import { headWord, isTask } from "./attributes.ts";
import type { ExtractionInput, Extractor } from "./types.ts";

const RELATIVES =
  "sister|brother|mom|mother|mum|dad|father|wife|husband|partner|boyfriend|girlfriend|son|daughter|friend|best friend|boss|manager|colleague|coworker|roommate|neighbou?r|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|fiancée?|kid|child";
const RELATIVE_SUBJECT = new RegExp(`^(?:[Mm]y|[Oo]ur)\\s+(${RELATIVES})(?:,?\\s+([A-Z][a-z]+),?)?\\s+(.+)$`);
const NAMED_SUBJECT =
  /^([A-Z][a-z]{2,})\s+((?:just |recently |now |still |also |really )?(?:lives|moved|works|is|loves|likes|enjoys|prefers|hates|has|was born|got|started|stopped|quit)\b.*)$/;
/** Capitalised words that start sentences without naming anyone. */
const NOT_NAMES = new Set(
  "The This That These Those There Then It What When Where Which While Who Why How Yes Yeah Well Also But And So Today Tomorrow Yesterday Maybe Actually Honestly Sure Thanks Thank Please Every Each Our Your His Her Their Its One Some Most Many Just Now Still Here Sounds Hello Hi Hey Okay".split(
    " ",
  ),
);
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|my|me|we|we're|our)\b/i;
const CHANGE =
  /\b(?:now|no longer|not anymore|anymore|these days|switched|changed|moved|started|stopped|quit|gave up|instead|recently|finally|used to)\b/i;
const NEGATION =
  /\b(?:no longer|not anymore|anymore|stopped|quit|gave up|don't|do not|doesn't|does not|never|can't stand|cannot stand|hate|hates|hated|dislike|dislikes|disliked)\b/i;
const CONDITION =
  /\b((?:when|whenever|while|if|during|before|after)\s+[^,.;!?]+|on (?:weekends?|weekdays|workdays|rainy days|hot days|cold days)|in the (?:morning|afternoon|evening|summer|winter)s?|at (?:night|work|home|the office|the gym))/i;
const STOP =
  /[,.;!?]|\s(?:but|because|so that|since|although|though|which|who)\s|\sand (?:she|he|they|i|we|it|my|his|her)\b/i;
const SCHEDULE_NOUNS =
  /\b(meeting|appointment|class|flight|deadline|exam|interview|call|dinner|party|trip|concert|game|lesson|practice|workout|race|competition|wedding|check-?up|conference|presentation|surgery|visit|match|recital|tournament)s?\b/i;
const PAST_VERB =
  /\b(?:i|we|he|she)\s+(?:just\s+|finally\s+|recently\s+)?(?:\w+ed|went|got|had|took|made|saw|met|ran|bought|began|won|lost|did|gave|found|wrote|read|visited|left|came|flew|drove|spent|sold|threw|built|paid|heard|held|taught|caught)\b/i;
const PROJECT =
  /\b(?:we|i)\s+(?:have\s+|'ve\s+)?(?:finally\s+|just\s+)?(decided|chose|agreed|settled|confirmed|booked|finished|completed|switched|changed|updated|picked|locked in|approved|finalized|finalised|set)\b\s*(?:on|to|for|with)?\s*([^.;!?]+)/i;

interface Rule {
  re: RegExp;
  kind: MemoryKind;
  /** Attribute key from the match; undefined drops the match. */
  attribute: (m: RegExpExecArray) => string | undefined;
  value: (m: RegExpExecArray) => string;
  change?: boolean;
  /** Whether the match states that the value does not (or no longer) hold, beyond the sentence's negation words. */
  negated?: (m: RegExpExecArray) => boolean;
}

function cut(text: string | undefined): string {
  if (!text) return "";
  const m = STOP.exec(text);
  let value = (m ? text.slice(0, m.index) : text).trim();
  // "groceries earlier today": strip until none is left.
  for (let before = ""; before !== value; ) {
    before = value;
    value = value.replace(TRAILING_ADVERB, "").trim();
  }
  return value;
}

/** Trailing adverbs belong to the statement, not to the value ("Lisbon now"). */
const TRAILING_ADVERB =
  /\s+(?:now|these days|nowadays|lately|recently|earlier|later|soon|today|tonight|tomorrow|this (?:morning|afternoon|evening|week)|next week|last night|yesterday|anymore|any more|again|too|as well|currently|already)$/i;

/** Pronouns name no attribute: "I'm not into it anymore" is left to the raw turn. */
const PRONOUN_OBJECT = /^(?:it|that|this|them|these|those|him|her|one|some|any)$/i;

/** `preference:<head word>` of a liked or disliked object, without its condition or comparison. */
function preferenceKey(object: string | undefined): string | undefined {
  const bare = stripCondition(cut(object)).replace(/\s+(?:over|to|more than|rather than)\s+.*$/i, "");
  const head = headWord(bare);
  return head && !PRONOUN_OBJECT.test(head) ? `preference:${head}` : undefined;
}

/** Adverbs that may sit between the subject and a preference verb. */
const PREFERENCE_ADVERBS =
  "(?:really |absolutely |just |still |now |also |kind of |actually |do |truly |much |usually |generally |always |so |very |totally |getting |increasingly |more |quite |particularly |especially |finding myself |definitely )*";
/** An amount of money: "$3.41", "$ 12", "40 dollars". */
const MONEY = "(\\$\\s?[\\d,]+(?:\\.\\d+)?|[\\d,]+(?:\\.\\d+)?\\s(?:dollars|euros|pounds|bucks))";

/** Units of a counted activity ("7,935 steps", "5 miles"). */
const COUNTED = "steps|miles|km|kilometers|laps|pages|hours|minutes|reps|push-?ups|calories";
/** How often a target holds: " per week", " every single day". */
const PER = "(?: (?:per|a|each|every|every single) (?:day|week|month|year))?";
/** Words between the subject and a target's verb: "I'm really trying to", "my new goal is to". */
const TARGET_WORDS =
  "goal|goals|want|wants|aim|aiming|trying|try|plan|planning|hope|hoping|determined|motivated|challenge|commit|committed";
const TARGET_CUE = `[^.;!?]*?\\b(?:${TARGET_WORDS})\\b[^.;!?]*?\\b`;
/** A sentence a target rule could match names a target or proposes one ("let's cap …"). */
const TARGET_PRECHECK = new RegExp(`\\b(?:${TARGET_WORDS}|let'?s)\\b`, "i");

/** A purchase, as its own `expense:<thing>` event (see resolve.ts): the groups of the thing bought and the amount. */
function purchaseRule(re: RegExp, thingGroup: number, amountGroup: number): Rule {
  return {
    re,
    kind: "event",
    attribute: (m) => timelessKey("expense", purchase(m[thingGroup])),
    value: (m) => `${m[amountGroup]} on ${purchase(m[thingGroup])}`,
  };
}

/** A spending target, as a `goal:<thing>` plan: the groups of the thing, the amount and how often. */
function spendingTarget(re: RegExp, thingGroup: number, amountGroup: number, perGroup: number): Rule {
  return {
    re,
    kind: "plan",
    attribute: (m) => timelessKey("goal", purchase(m[thingGroup])),
    value: (m) => `${purchase(m[thingGroup])} under ${m[amountGroup]}${m[perGroup]}`,
  };
}

/** Predicates in the first person ("I live in …") and the third ("lives in …"); `S` is the subject part. */
function rules(S: string): Rule[] {
  return [
    {
      re: new RegExp(`${S}(?:name is|'s name is|am called|is called)\\s+([A-Z]?[\\w'-]+(?:\\s+[A-Z][\\w'-]+)?)`, "i"),
      kind: "fact",
      attribute: () => "name",
      value: (m) => m[1]!,
    },
    {
      re: new RegExp(`${S}(?:was|were) born (in|on)\\s+([^,.;!?]+)`, "i"),
      kind: "fact",
      attribute: (m) => (m[1]!.toLowerCase() === "on" || /^\d{4}$/.test(m[2]!.trim()) ? "birthdate" : "birthplace"),
      value: (m) => cut(m[2]),
    },
    {
      re: new RegExp(
        `${S}(?:currently |now |still |also |actually )?(?:live|lives|am living|'m living|is living|reside|resides) in\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "fact",
      attribute: () => "residence",
      value: (m) => cut(m[1]),
    },
    {
      re: new RegExp(
        `${S}(?:just |recently |finally |have |has |'ve )*(?:moved|relocated) (?:to|into)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "fact",
      attribute: () => "residence",
      value: (m) => cut(m[1]),
      change: true,
    },
    {
      re: new RegExp(
        `${S}(?:currently |now |still |also )?(?:work|works|am working|'m working|is working) (as|at|for)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "fact",
      attribute: (m) => (m[1]!.toLowerCase() === "as" ? "occupation" : "employer"),
      value: (m) => cut(m[2]),
    },
    {
      re: new RegExp(`${S}(?:am|'m|is) (\\d{1,3}) (?:years old|yo)\\b`, "i"),
      kind: "fact",
      attribute: () => "age",
      value: (m) => m[1]!,
    },
    {
      re: new RegExp(`${S}(?:am|'m|is|was) (?:an only child|the only child)`, "i"),
      kind: "fact",
      attribute: () => "siblings",
      value: () => "none (only child)",
    },
    {
      re: new RegExp(`${S}(?:have|has|had) (\\w+) (brothers?|sisters?|siblings?)\\b`, "i"),
      kind: "fact",
      attribute: () => "siblings",
      value: (m) => `${m[1]} ${m[2]}`,
    },
    {
      re: new RegExp(
        `${S}(?:graduated|studied|got (?:my|his|her) (?:degree|bachelor'?s|master'?s|phd|diploma)) (?:from|at|in)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "fact",
      attribute: () => "education",
      value: (m) => cut(m[1]),
    },
    {
      re: /\b(?:my|his|her|their) (?:all-time |current |new )?favou?rite ([\w -]{2,30}?) (?:is|are|was|has become|became) (?:now |still )?([^,.;!?]+)/i,
      kind: "preference",
      attribute: (m) => `favorite:${headWord(m[1]!) ?? m[1]!.trim().toLowerCase()}`,
      value: (m) => cut(m[2]),
    },
    {
      re: new RegExp(
        `${S}${PREFERENCE_ADVERBS}(love|loves|like|likes|enjoy|enjoys|adore|adores|prefer|prefers|hate|hates|dislike|dislikes|can't stand|cannot stand|don't like|do not like|doesn't like|does not like|don't enjoy|no longer like|no longer likes|no longer enjoy|don't really like)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "preference",
      attribute: (m) => preferenceKey(m[2]),
      value: (m) => stripCondition(cut(m[2])),
    },
    {
      // "I've always loved X", "I've been really enjoying X lately" (not "I'm like …").
      re: new RegExp(
        `${S}(?:(?:have|has|'ve) ${PREFERENCE_ADVERBS}(?:loved|liked|enjoyed|adored|hated|disliked)|(?:am|'m|is|are|'re|have been|has been|'ve been) ${PREFERENCE_ADVERBS}(?:loving|enjoying|liking))\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "preference",
      attribute: (m) => preferenceKey(m[1]),
      value: (m) => stripCondition(cut(m[1])),
    },
    {
      // "I used to really like X, but …": a preference that has ended.
      re: new RegExp(
        `${S}used to (?:be )?${PREFERENCE_ADVERBS}(?:be )?(love|like|enjoy|adore|prefer|into|all about|a (?:big |huge |real )?fan of)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "preference",
      attribute: (m) => preferenceKey(m[2]),
      value: (m) => stripCondition(cut(m[2])),
      change: true,
      negated: () => true,
    },
    {
      // "I've been really into X lately", "I'm finding myself drawn to X", "I'm just not into X anymore".
      re: new RegExp(
        `${S}(?:am|'m|is|are|'re|have been|has been|'ve been|been) ${PREFERENCE_ADVERBS}(not |no longer )?${PREFERENCE_ADVERBS}(into|all about|drawn to|leaning (?:more )?towards?|a (?:big |huge |real )?fan of|obsessed with|passionate about|hooked on|crazy about|keen on)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "preference",
      attribute: (m) => preferenceKey(m[3]),
      value: (m) => stripCondition(cut(m[3])),
      negated: (m) => m[1] !== undefined,
    },
    // "I spent $3.41 on coffee": each purchase is its own event (see resolve.ts).
    purchaseRule(
      new RegExp(
        `${S}(?:just |actually |also |only |already |probably |even |did )*(?:spent|spend|paid|pay|dropped) ${MONEY}\\s+(?:on|for)\\s+([^,.;!?]+)`,
        "i",
      ),
      2,
      1,
    ),
    // "I just grabbed a coffee for $3.25".
    purchaseRule(
      new RegExp(
        `${S}(?:just |actually |also |only |already )*(?:bought|grabbed|got|picked up|ordered|had) (?:a |an |some |the |my )?([^,.;!?$]+?) for ${MONEY}`,
        "i",
      ),
      1,
      2,
    ),
    // "I grabbed a $6.94 coffee", "I just had an $8.75 latte".
    purchaseRule(
      new RegExp(
        `${S}(?:just |even |also |actually |only )*(?:bought|grabbed|got|picked up|ordered|had) (?:a |an |some |my )?${MONEY} ([^,.;!?$]+)`,
        "i",
      ),
      2,
      1,
    ),
    // "My coffee this morning cost $8.36", "I grabbed a coffee earlier, which cost me $6.36".
    purchaseRule(
      new RegExp(
        `${S}(?:(?:just |even |also )*(?:bought|grabbed|got|picked up|ordered|had) (?:a |an |some |the )?)?([^,.;!?$]+?),? (?:which |that )?(?:cost|came to) (?:me )?(?:about |around |only |just )?${MONEY}`,
        "i",
      ),
      1,
      2,
    ),
    // "I grabbed a coffee this morning; it was $3.50".
    purchaseRule(
      new RegExp(
        `${S}(?:just |even |also )*(?:bought|grabbed|got|picked up|ordered|had) (?:a |an |some |the )?([^,.;!?$]+?)[,;] (?:and )?(?:it|which|that) (?:was|cost|came to) (?:me )?(?:about |around |only |just )?${MONEY}`,
        "i",
      ),
      1,
      2,
    ),
    // "My lunch today was $21.04" (not a budget, a salary or a price quoted).
    purchaseRule(
      new RegExp(
        `${S}((?!(?:budget|salary|income|rent|price|estimate|goal|limit|target|balance|savings|total)\\b)[\\p{L}]+(?: (?:today|this morning|this afternoon|tonight|yesterday|last night))?) (?:was|were) (?:about |around |only |just )?${MONEY}`,
        "iu",
      ),
      1,
      2,
    ),
    // "… how much I spent on breakfast this morning, it was $17.46".
    purchaseRule(
      new RegExp(`${S}[^.!?]*?\\bspent on ([^,.;!?$]+?),? (?:and )?(?:it|which) (?:was|came to) ${MONEY}`, "i"),
      1,
      2,
    ),
    // No subject, in a first-person sentence: "For me, it's the little things, like grabbing a $6.94 coffee".
    purchaseRule(
      new RegExp(`\\b(?:grabbing|buying|getting|ordering|picking up) (?:a |an |some |my )?${MONEY} ([^,.;!?$]+)`, "i"),
      2,
      1,
    ),
    {
      // Counted activity: "I got 7,935 steps in today", "I ran 5 miles". A count "so far"
      // is a day's running total, not an entry: adding it would count that day twice.
      re: new RegExp(
        `${S}(?:ve |have |'ve )?(?:just |actually |also |finally |only |even )*(?:got|walked|ran|did|logged|hit|completed|cycled|swam|slept|read|took|taken|clocked|racked up|managed to (?:get|walk|hit|do)) (?:in )?(?:about |around |over |almost |nearly )?([\\d,]+(?:\\.\\d+)?) (${COUNTED})\\b(?![^,.;!?]*\\bso far\\b)`,
        "i",
      ),
      kind: "event",
      attribute: (m) => `log:${m[2]!.toLowerCase().replace(/-/g, "")}`,
      value: (m) => `${m[1]} ${m[2]!.toLowerCase()}`,
    },
    // A spending target: "I'm trying to keep my coffee spending under $45 per week", "let's cap my coffee spending at $25 a week".
    spendingTarget(
      new RegExp(
        `(?:${S}${TARGET_CUE}|\\blet'?s )(?:keep|limit|cap) (?:my |our )?([\\p{L} ]+?) (?:spending|expenses?|budget|costs?) (?:to |at |under |below |within )?(?:no more than |less than |under |below )?${MONEY}(${PER})`,
        "iu",
      ),
      1,
      2,
      3,
    ),
    // The thing named first, the target after: "cut back on my coffee spending; my goal is to keep it under $30 per week".
    spendingTarget(
      new RegExp(
        `${S}[^.!?]*?\\b(?:my|on|our) ([\\p{L}]+) (?:spending|expenses?)[^.!?]*?\\b(?:keep|limit|cap) (?:it|that|this|them) (?:to |at |under |below |within )?(?:no more than |less than |under |below )?${MONEY}(${PER})`,
        "iu",
      ),
      1,
      2,
      3,
    ),
    // "… spend no more than $210 per week on dinner".
    spendingTarget(
      new RegExp(
        `${S}${TARGET_CUE}spend(?:ing)? (?:no more than |less than |under |below |at most |only )${MONEY}(${PER}) on ([^,.;!?]+)`,
        "i",
      ),
      3,
      1,
      2,
    ),
    {
      // A counted target: "I want to start walking 8,000 steps per day".
      re: new RegExp(
        `${S}${TARGET_CUE}(?:walk|walking|get|getting|hit|hitting|reach|reaching|do|doing|take|taking|run|running|read|reading) (?:at least )?([\\d,]+) (${COUNTED})(${PER})`,
        "i",
      ),
      kind: "plan",
      attribute: (m) => timelessKey("goal", m[2]!),
      value: (m) => `${m[1]} ${m[2]!.toLowerCase()}${m[3]}`,
    },
    {
      // A task: "I need to book a flight for my vacation soon", "I need to remember to call my parents".
      re: new RegExp(
        `${S}(?:still |really |also |actually |just |definitely )*need to (?:remember to |make sure (?:i |to )?)?((?!be |have |know |think |say |get going|go now|figure out what)[^,.;!?]+)`,
        "i",
      ),
      kind: "plan",
      attribute: (m) => taskKey(m[1]),
      value: (m) => task(m[1]),
    },
    {
      // A task done or dropped: "I finished buying groceries", "remove X from my to-do list",
      // "I no longer need to track X", "I've completed optimizing the queries".
      re: new RegExp(
        `${S}(?:have |'ve |ve )?(?:actually |just |already |finally |also )*(?:finished|completed|am done with|'m done with|crossed off|took care of|managed to|no longer need to track|can remove|'d like to remove|want to remove) (?:the |my |that )?"?([^,.;!?"]+)`,
        "i",
      ),
      kind: "plan",
      attribute: (m) => taskKey(m[1]),
      value: (m) => `not ${task(m[1])}`,
      negated: () => true,
    },
    {
      // A task done by doing it: "I actually just booked my flight for vacation", "I already paid my utility bills".
      re: new RegExp(
        `${S}(?:have |'ve |ve )?(?:actually |just |already |finally )+(booked|bought|called|paid|scheduled|set up|configured|updated|fixed|cleaned|sent|submitted|wrote|read|planned|optimized|refactored) ([^,.;!?]+)`,
        "i",
      ),
      kind: "plan",
      attribute: (m) => taskKey(`${m[1]} ${m[2]}`),
      value: (m) => `not ${task(`${m[1]} ${m[2]}`)}`,
      negated: () => true,
    },
    {
      re: /\b(?:my|his|her|our) (?:new |main |big |personal )?goal (?:is|was) to\s+([^,.;!?]+)/i,
      kind: "plan",
      attribute: (m) => timelessKey("goal", cut(m[1])),
      value: (m) => cut(m[1]),
    },
    {
      re: new RegExp(
        `${S}(?:have |has |'ve )?(stopped|quit|gave up|started|took up|picked up|switched to)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "preference",
      attribute: (m) => {
        const head = headWord(m[2]!.replace(/\bfor\b.*$/i, ""));
        return head ? `habit:${head}` : undefined;
      },
      value: (m) => `${m[1]!.toLowerCase()} ${cut(m[2])}`,
      change: true,
    },
    {
      re: new RegExp(
        `${S}(?:am |'m |is |are |'re )?(?:going to|planning to|plan to|plans to|intend to|intends to|will|'ll|hoping to|hope to)\\s+([^,.;!?]+)`,
        "i",
      ),
      kind: "plan",
      attribute: (m) => timelessKey("plan", m[1]!),
      value: (m) => cut(m[1]),
    },
  ];
}

/**
 * What a sentence must hold before a rule is tried: a digit for the amount and
 * count rules, a target word for the target rules. Most chat has neither, and
 * these rules' lazy scans are the costly ones.
 */
function withPrechecks(list: Rule[]): Array<Rule & { digit: boolean; target: boolean }> {
  return list.map((rule) => ({
    ...rule,
    digit: rule.re.source.includes(MONEY) || rule.re.source.includes("([\\d,]+"),
    target: rule.re.source.includes(TARGET_CUE),
  }));
}
const FIRST = withPrechecks(rules("\\b(?:i|we|my|our)\\s*(?:'|\\s)?"));
const THIRD = withPrechecks(rules("^"));

/** `<prefix>:<head word>` of a phrase with its time expression taken out ("visit Rome next month" → plan:rome). */
function timelessKey(prefix: string, phrase: string): string | undefined {
  const head = headWord(withoutTime(phrase));
  return head ? `${prefix}:${head}` : undefined;
}

function withoutTime(text: string): string {
  const when = resolveTimeExpression(text, "2000-01-01");
  return when ? text.replace(new RegExp(when.expression, "i"), " ") : text;
}

/** A task without its time, place, manner or purpose: "book a flight for my vacation soon" → "book a flight". */
function task(text: string | undefined): string {
  const bare = cut(text?.replace(/\s+from my (?:[\w-]+ )*(?:to-?do list|tasks?)\b.*$/i, ""));
  const done = cut(
    bare.replace(/\s+(?:using|with|at|from|while|because|since|as|before|after|during|near|by|when)\s.*$/i, ""),
  );
  // "for", "in", "on", "to" end the task only after a verb and its object: "book a flight | for my
  // vacation", "fix a bug | in the code", but "prepare for a code review meeting" stays whole.
  const m = /^(\S+\s+\S+(?:\s+\S+)*?)\s+(?:for|in|on|to)\s/i.exec(done);
  return m ? cut(m[1]) : done;
}

/** Past forms whose stem is not the present's: "bought" is "buy". */
const IRREGULAR: Record<string, string> = {
  bought: "buy",
  paid: "pay",
  wrote: "write",
  sent: "send",
  made: "make",
  took: "take",
  got: "get",
  did: "do",
  went: "go",
  ran: "run",
  setup: "set",
};

/** A verb's stem, crudely: "booking", "booked", "books", "book" → "book"; "configure", "configuring" → "configur". */
function verbStem(word: string): string {
  const w = word.toLowerCase();
  if (IRREGULAR[w]) return IRREGULAR[w]!;
  return w.replace(/(?:ing|ed|es|e|s)$/, "").replace(/(.)\1$/, "$1");
}

/**
 * An edit asked of the assistant about the document at hand ("I need to update the
 * meeting notes titled …", "add some content") is a request, not a task of the user's.
 */
const EDIT_REQUEST =
  /^(?:add|update|remove|edit|change|include|revise|modify|delete|rewrite)\b.*\b(?:notes?|emails?|proposals?|documents?|drafts?|sections?|information|content|titled|points?|details?)\b/i;

/**
 * `todo:<verb stem>:<head word>` of a task, so that "buy groceries" and "finished buying
 * groceries" meet. A task names a thing to do in two words or more, ending on what is to be done
 * ("go", "sign off for", "increase it" do not).
 */
function taskKey(text: string | undefined): string | undefined {
  const t = task(text);
  const words = t.split(/\s+/).filter(Boolean);
  const last = words.at(-1) ?? "";
  if (words.length < 2 || /^(?:for|to|on|in|at|with|off|up|out|done|there)$/i.test(last) || PRONOUN_OBJECT.test(last))
    return undefined;
  if (EDIT_REQUEST.test(t)) return undefined;
  const head = headWord(t);
  // Keyed on the verb and its object: "read the documentation" and "update the documentation" are two tasks.
  return head && !PRONOUN_OBJECT.test(head) ? `todo:${verbStem(words[0]!)}:${head}` : undefined;
}

/** What was bought, without where, when, how or why: "lunch today using a new payment method" → "lunch". */
function purchase(text: string | undefined): string {
  return cut(
    cut(text).replace(
      /\s+(?:using|with|at|from|while|to|because|since|as|before|after|during|for|on|in|near|by|when|and)\s.*$/i,
      "",
    ),
  );
}

function stripCondition(value: string): string {
  const m = CONDITION.exec(value);
  return (m ? value.slice(0, m.index) : value).trim();
}

/** Sentences of a turn, trimmed; very long ones are kept whole (they are still turns). */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z"“'(])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Who "I" is in this turn: the user, or a named speaker of a conversation between people. */
function ownerOf(turn: LedgerTurn): Subject | undefined {
  if (turn.role === "user") return USER;
  const speaker = turn.speaker?.trim();
  if (turn.role === "assistant" && speaker && !/^(assistant|ai|bot|system|gpt)$/i.test(speaker)) {
    return speaker.toLowerCase();
  }
  return undefined;
}

const OPENERS =
  /^(?:(?:oh|well|so|yeah|yes|actually|honestly|anyway|also|and|but|btw|by the way|haha|wow|ok|okay|hey|hi|hello)[,!]?\s+)+/i;

interface Context {
  sessionTime?: string;
  turn: LedgerTurn;
}

function draftFrom(
  subject: Subject,
  kind: MemoryKind,
  attribute: string,
  value: string,
  sentence: string,
  ctx: Context,
  change: boolean,
): MemoryDraft | undefined {
  const anchor = ctx.turn.time ?? ctx.sessionTime;
  const when = resolveTimeExpression(sentence, anchor);
  let clean = value.replace(/\s+/g, " ").trim();
  // The time expression dates the memory; inside a short value it is noise ("Denver last week").
  if (when && kind !== "schedule" && kind !== "event") clean = clean.replace(when.expression, "").trim();
  if (!clean || clean.length > 120) return undefined;
  const condition = kind === "preference" ? CONDITION.exec(sentence)?.[1]?.trim() : undefined;
  const negated = (kind === "preference" || change) && NEGATION.test(sentence);
  const draft: MemoryDraft = {
    subject,
    kind,
    attribute,
    value: clean,
    text: sentence,
    turnIds: [ctx.turn.id],
    ...(condition ? { condition: condition.toLowerCase() } : {}),
    ...(change || CHANGE.test(sentence) ? { change: true } : {}),
    ...(negated ? { negated: true } : {}),
  };
  // A plan or a scheduled item is valid from the day it points at; a state from when it was said.
  // A task opens and closes when it is said: "done yesterday", told after "need to, today", still closes it.
  const task = isTask(attribute);
  if (when && !task && (kind === "plan" || kind === "schedule" || kind === "event")) draft.validFrom = when.day;
  else if (when && !task && /\b(?:since|ago|last|yesterday)\b/i.test(when.expression + sentence))
    draft.validFrom = when.day;
  return draft;
}

/** A sentence that opens on a purchase or count verb with its subject left out. */
const ELIDED_SUBJECT =
  /^(?:just |also |finally |actually |only )*(?:grabbed|bought|spent|paid|ordered|picked up|walked|ran|logged|clocked|hit) /i;

/** A sentence states one goal, one purchase or one count, however many rules read it. */
const ONE_PER_SENTENCE = /^(?:goal|expense|log):/;
const sameFamily = (a: string, b: string) => a.slice(0, a.indexOf(":")) === b.slice(0, b.indexOf(":"));

function extractSentence(sentence: string, ctx: Context, owner: Subject): MemoryDraft[] {
  if (sentence.endsWith("?") || sentence.length > 400 || sentence.length < 8) return [];
  const opened = sentence.replace(OPENERS, "");
  // Chat drops the subject of a purchase or a count ("Just grabbed a cortado for $4.25"): the speaker's.
  const s = ELIDED_SUBJECT.test(opened) ? `I ${opened}` : opened;
  const out: MemoryDraft[] = [];
  let subject = owner;
  let predicate = s;
  let ruleSet = FIRST;
  const relative = RELATIVE_SUBJECT.exec(s);
  const named = NAMED_SUBJECT.exec(s);
  if (relative) {
    subject = (relative[2] ?? relative[1]!).toLowerCase();
    predicate = relative[3]!;
    ruleSet = THIRD;
  } else if (named && !NOT_NAMES.has(named[1]!) && named[1]!.toLowerCase() !== owner) {
    subject = named[1]!.toLowerCase();
    predicate = named[2]!;
    ruleSet = THIRD;
  } else if (!FIRST_PERSON.test(s)) {
    return [];
  }
  const digits = /\d/.test(predicate);
  const target = TARGET_PRECHECK.test(predicate);
  for (const rule of ruleSet) {
    if ((rule.digit && !digits) || (rule.target && !target)) continue;
    const m = rule.re.exec(predicate);
    if (!m) continue;
    const attribute = rule.attribute(m);
    if (!attribute) continue;
    // One statement gives an attribute one value: the first (most specific) rule's.
    if (
      out.some(
        (d) =>
          d.attribute === attribute ||
          (ONE_PER_SENTENCE.test(attribute) &&
            ONE_PER_SENTENCE.test(d.attribute) &&
            sameFamily(d.attribute, attribute)),
      )
    )
      continue;
    const draft = draftFrom(subject, rule.kind, attribute, rule.value(m), sentence, ctx, rule.change ?? false);
    if (draft && rule.negated?.(m)) draft.negated = true;
    if (draft) out.push(draft);
  }
  if (out.length) return out;
  // Dated items without a known predicate: schedules ("the interview is on May 3") and past events.
  const when = resolveTimeExpression(s, ctx.turn.time ?? ctx.sessionTime);
  const noun = SCHEDULE_NOUNS.exec(s);
  if (when && noun && !PAST_VERB.test(s)) {
    const d = draftFrom(subject, "schedule", `schedule:${noun[1]!.toLowerCase()}`, s, sentence, ctx, false);
    if (d) out.push({ ...d, validFrom: when.day });
  } else if (when && PAST_VERB.test(s)) {
    const head = headWord(s.slice(0, 80)) ?? "event";
    const d = draftFrom(subject, "event", `event:${when.day}:${head}`, s, sentence, ctx, false);
    if (d) out.push({ ...d, validFrom: when.day });
  }
  const project = PROJECT.exec(s);
  if (project) {
    const head = headWord(cut(project[2])) ?? project[1]!.toLowerCase();
    const d = draftFrom(subject, "project", `project:${head}`, cut(project[2]) || s, sentence, ctx, true);
    if (d) out.push(d);
  }
  return out;
}

export class OfflineExtractor implements Extractor {
  readonly id = "offline-rules";

  /** As `extractTurns`, yielding to the event loop between slices of a long session. */
  async extract(input: ExtractionInput): Promise<MemoryDraft[]> {
    const slices = new Slices();
    const out: MemoryDraft[] = [];
    for (const drafts of sentenceDrafts(input)) {
      out.push(...drafts);
      await slices.tick();
    }
    return out;
  }
}

/** Synchronous core of the offline extractor. */
export function extractTurns(input: ExtractionInput): MemoryDraft[] {
  return [...sentenceDrafts(input)].flat();
}

/** The drafts of each sentence the rules read, in order. */
function* sentenceDrafts(input: ExtractionInput): Generator<MemoryDraft[]> {
  for (const turn of input.turns) {
    const owner = ownerOf(turn);
    if (!owner) continue;
    for (const sentence of sentences(turn.content)) {
      yield extractSentence(sentence, { sessionTime: input.time, turn }, owner);
    }
  }
}
