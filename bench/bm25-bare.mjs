// A bare BM25-over-sessions loop on RealMem, written apart from membench on
// purpose (plain Node, no project code, no dependency): the floor that
// `membench run realmem --system bm25-session` is measured against in
// bench/release.ts. It follows the same protocol — sessions in file order, each
// query searched before its own session with only the query's text, gold = the
// sessions the gold reply's memory came from — and computes the same metric,
// recall_all@k: 1 when every gold session is in the top k, averaged over the
// queries that have gold sessions. The scoring is the one docs/systems.md gives
// for bm25-session (BM25+, k1 1.2, b 0.7, δ 0.5, a session's length its number
// of distinct terms), so the two rankings should agree to within ties and
// tokenisation. The stopword list is data, not code: bench/release.ts passes
// bm25's own (`--stopwords "a about …"`), as docs/systems.md names it without
// listing it; without one, a short list of its own is used.
//
//   node bench/bm25-bare.mjs <realmem file or folder> [--stopwords "…"]   → one JSON line on stdout
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const KS = [5, 10, 20];
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
const given = process.argv.indexOf("--stopwords");
const STOP = new Set(
  given > 0
    ? process.argv[given + 1].split(/\s+/).filter(Boolean)
    : "a an and are as at be but by can could did do does for from had has have he her his how i i'm if in into is it its me my no not of on or our she so that the their them then there they this to was we were what when where which who will with would you your".split(
        " ",
      ),
);

function tokens(text) {
  const out = [];
  for (const word of text
    .normalize("NFKC")
    .toLowerCase()
    .replaceAll("\u2019", "'")
    .match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? []) {
    if (!STOP.has(word)) out.push(word.endsWith("'s") ? word.slice(0, -2) : word);
  }
  return out;
}

function personaFiles(path) {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path)
    .filter((n) => /_dialogues(?:_[^.]*)?\.json$/i.test(n))
    .sort()
    .map((n) => join(path, n));
}

function goldSessions(reply, byUuid) {
  const uuids = Array.isArray(reply?.memory_session_uuids)
    ? reply.memory_session_uuids
    : (reply?.memory_used ?? []).map((m) => m.session_uuid);
  return [...new Set(uuids.map((u) => byUuid.get(u) ?? u))];
}

const started = performance.now();
const sums = Object.fromEntries(KS.map((k) => [k, 0]));
let queries = 0;
let personas = 0;
for (const file of personaFiles(process.argv[2])) {
  personas++;
  const dialogues = JSON.parse(readFileSync(file, "utf8")).dialogues;
  const byUuid = new Map(dialogues.map((d) => [d.session_uuid, d.session_identifier]));
  // The index so far: per session its term counts and length; document frequencies over them.
  const docs = [];
  const df = new Map();
  let totalLength = 0;
  for (const session of dialogues) {
    const turns = session.dialogue_turns;
    turns.forEach((turn, j) => {
      if (turn.is_query !== true) return;
      const gold = goldSessions(turns[j + 1], byUuid);
      if (!gold.length) return;
      queries++;
      const terms = [...new Set(tokens(turn.content))];
      const avg = totalLength / Math.max(docs.length, 1);
      const scored = [];
      for (const doc of docs) {
        let score = 0;
        for (const t of terms) {
          const tf = doc.tf.get(t);
          if (!tf) continue;
          const n = df.get(t);
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += idf * (DELTA + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avg)));
        }
        if (score > 0) scored.push({ id: doc.id, score });
      }
      scored.sort((a, b) => b.score - a.score);
      for (const k of KS) {
        const top = new Set(scored.slice(0, k).map((s) => s.id));
        if (gold.every((g) => top.has(g))) sums[k]++;
      }
    });
    const words = tokens(turns.map((t) => t.content).join("\n"));
    const tf = new Map();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    docs.push({ id: session.session_identifier, tf, length: tf.size });
    totalLength += tf.size;
  }
}
const metrics = Object.fromEntries(KS.map((k) => [`recall_all@${k}`, queries ? sums[k] / queries : 0]));
process.stdout.write(`${JSON.stringify({ personas, queries, metrics, ms: performance.now() - started })}\n`);
