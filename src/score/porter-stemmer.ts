/**
 * The Porter stemmer as NLTK runs it by default (its "NLTK extensions" mode),
 * because LoCoMo's reference F1 (`task_eval/evaluation.py`) stems every token with it:
 * a different stemmer would move scores. Written from the published algorithm
 * (Porter 1980) plus NLTK's documented departures: an irregular-forms table,
 * words of one or two letters left alone, `ies`/`ied` on four-letter words
 * kept as `ie`, `y → i` only after a consonant, `alli` tried first in step 2,
 * `bli → ble`, `fulli → ful` and `logi → log` with the `l` kept in the stem.
 * Input must already be lower-case.
 */

const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["sky", "sky"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["news", "news"],
  ["innings", "inning"],
  ["inning", "inning"],
  ["outings", "outing"],
  ["outing", "outing"],
  ["cannings", "canning"],
  ["canning", "canning"],
  ["howe", "howe"],
  ["proceed", "proceed"],
  ["exceed", "exceed"],
  ["succeed", "succeed"],
]);

function isConsonant(word: string, i: number): boolean {
  const c = word[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
  // A `y` is a vowel after a consonant and a consonant anywhere else.
  if (c === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** Porter's m: the number of vowel→consonant transitions in [C](VC)^m[V]. */
function measure(stem: string): number {
  let m = 0;
  for (let i = 1; i < stem.length; i++) {
    if (!isConsonant(stem, i - 1) && isConsonant(stem, i)) m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** Porter's *o, widened (as NLTK does) to a two-letter vowel–consonant stem. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n >= 3) {
    return (
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !"wxy".includes(word[n - 1] as string)
    );
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

type Condition = ((stem: string) => boolean) | null;
/** suffix, replacement, condition on what remains once the suffix is cut. */
type Rule = readonly [string, string, Condition];

/**
 * The first rule whose suffix the word ends with decides: if its condition
 * fails, the word stays as it is and later rules are not tried. The special
 * suffix `*d` stands for any double consonant.
 */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d") {
      if (!endsDoubleConsonant(word)) continue;
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (!word.endsWith(suffix)) continue;
    const stem = suffix === "" ? word : word.slice(0, -suffix.length);
    return condition === null || condition(stem) ? stem + replacement : word;
  }
  return word;
}

const positive = (stem: string) => measure(stem) > 0;
const aboveOne = (stem: string) => measure(stem) > 1;

function step1a(word: string): string {
  if (word.length === 4 && word.endsWith("ies")) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.slice(0, -3) + (word.length === 4 ? "ie" : "i");
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let stem: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix) && hasVowel(word.slice(0, -suffix.length))) {
      stem = word.slice(0, -suffix.length);
      break;
    }
  }
  if (stem === undefined) return word;
  const last = stem[stem.length - 1] as string;
  return applyRules(stem, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => !"lsz".includes(last)],
    ["", "e", (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith("alli") && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ["ational", "ate", positive],
    ["tional", "tion", positive],
    ["enci", "ence", positive],
    ["anci", "ance", positive],
    ["izer", "ize", positive],
    ["bli", "ble", positive],
    ["alli", "al", positive],
    ["entli", "ent", positive],
    ["eli", "e", positive],
    ["ousli", "ous", positive],
    ["ization", "ize", positive],
    ["ation", "ate", positive],
    ["ator", "ate", positive],
    ["alism", "al", positive],
    ["iveness", "ive", positive],
    ["fulness", "ful", positive],
    ["ousness", "ous", positive],
    ["aliti", "al", positive],
    ["iviti", "ive", positive],
    ["biliti", "ble", positive],
    ["fulli", "ful", positive],
    // The measure is taken with the `l` still on the stem, so geology and theology stem alike.
    ["logi", "log", () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ["icate", "ic", positive],
    ["ative", "", positive],
    ["alize", "al", positive],
    ["iciti", "ic", positive],
    ["ical", "ic", positive],
    ["ful", "", positive],
    ["ness", "", positive],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ["al", "", aboveOne],
    ["ance", "", aboveOne],
    ["ence", "", aboveOne],
    ["er", "", aboveOne],
    ["ic", "", aboveOne],
    ["able", "", aboveOne],
    ["ible", "", aboveOne],
    ["ant", "", aboveOne],
    ["ement", "", aboveOne],
    ["ment", "", aboveOne],
    ["ent", "", aboveOne],
    ["ion", "", (stem) => aboveOne(stem) && (stem.endsWith("s") || stem.endsWith("t"))],
    ["ou", "", aboveOne],
    ["ism", "", aboveOne],
    ["ate", "", aboveOne],
    ["iti", "", aboveOne],
    ["ous", "", aboveOne],
    ["ive", "", aboveOne],
    ["ize", "", aboveOne],
  ]);
}

function step5a(word: string): string {
  if (!word.endsWith("e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

function step5b(word: string): string {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

/** The stem of one lower-case token. */
export function porterStem(word: string): string {
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return word;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(word))))))));
}
