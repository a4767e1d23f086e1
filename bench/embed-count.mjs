// Loaded with `node --import` into a membench child by bench/embed.ts: counts the
// texts the offline model (USE-lite, from dist/) is asked to embed in this
// thread, and writes the count to MEMBENCH_BENCH_EMBED_COUNT_FILE on exit. Texts
// embedded elsewhere (a worker thread) are not seen: the bench checks the count
// against the vectors the cache gained and says when the hook missed them.
import { writeFileSync } from "node:fs";
import { UseLiteEmbedder } from "../dist/embed/use-lite.js";

const file = process.env.MEMBENCH_BENCH_EMBED_COUNT_FILE;
if (file) {
  let texts = 0;
  const embed = UseLiteEmbedder.prototype.embed;
  UseLiteEmbedder.prototype.embed = function (batch) {
    texts += batch.length;
    return embed.call(this, batch);
  };
  process.on("exit", () => writeFileSync(file, String(texts)));
}
