/**
 * A tiny sentence-embedding model folder in the Hugging Face layout, written
 * by the test itself (nothing is downloaded): config.json, a word-level
 * tokenizer, and onnx/model.onnx, a real ONNX graph whose one node looks each
 * token id up in an embedding table (`Gather`), giving `last_hidden_state`
 * [batch, tokens, dim]. The vectors are chosen so that the mean-pooled,
 * normalised embedding of any text can be worked out by hand (expectedEmbedding).
 *
 * The ONNX file is protobuf, encoded here field by field (onnx.proto3: ModelProto,
 * GraphProto, NodeProto, TensorProto, ValueInfoProto), so no ONNX tooling is needed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// --- protobuf encoding: only what ONNX needs ---------------------------------

function varint(n: number): number[] {
  const out: number[] = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

type Field = number[];
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: number): Field => [...key(field, 0), ...varint(n)];
const bytes = (field: number, data: Uint8Array | number[]): Field => [
  ...key(field, 2),
  ...varint(data.length),
  ...data,
];
const str = (field: number, s: string): Field => bytes(field, [...Buffer.from(s, "utf8")]);
const msg = (field: number, ...parts: Field[]): Field => bytes(field, parts.flat());

const FLOAT = 1;
const INT64 = 7;

/** A tensor type with named (dynamic) or fixed dimensions. */
const tensorType = (elemType: number, dims: Array<string | number>): Field =>
  msg(1, int(1, elemType), msg(2, ...dims.map((d) => msg(1, typeof d === "number" ? int(1, d) : str(2, d)))));

const valueInfo = (field: number, name: string, elemType: number, dims: Array<string | number>): Field =>
  msg(field, str(1, name), msg(2, tensorType(elemType, dims)));

function embeddingModel(table: readonly (readonly number[])[]): Uint8Array {
  const dim = table[0]!.length;
  const raw = Buffer.alloc(table.length * dim * 4);
  for (const [i, x] of table.flat().entries()) raw.writeFloatLE(x, i * 4);
  const graph = [
    // node: Gather(embeddings, input_ids) -> last_hidden_state
    msg(1, str(1, "embeddings"), str(1, "input_ids"), str(2, "last_hidden_state"), str(3, "lookup"), str(4, "Gather")),
    str(2, "tiny-embedder"),
    msg(5, int(1, table.length), int(1, dim), int(2, FLOAT), str(8, "embeddings"), bytes(9, raw)),
    valueInfo(11, "input_ids", INT64, ["batch", "tokens"]),
    valueInfo(11, "attention_mask", INT64, ["batch", "tokens"]),
    valueInfo(12, "last_hidden_state", FLOAT, ["batch", "tokens", dim]),
  ];
  const model = [int(1, 8), str(2, "membench-test"), msg(7, ...graph), msg(8, str(1, ""), int(2, 13))];
  return Uint8Array.from(model.flat());
}

// --- the model folder ----------------------------------------------------------

/** The words the tokenizer knows; anything else is [UNK]. Ids 0 and 1 are [PAD] and [UNK]. */
export const TINY_WORDS = ["red", "green", "blue", "apple", "grass", "sky"];
export const TINY_DIM = 4;

/** Row i of the embedding table: the vector of token id i. */
export function tinyTable(): number[][] {
  const rows: number[][] = [
    [0, 0, 0, 0], // [PAD]
    [1, 1, 1, 1], // [UNK]
  ];
  TINY_WORDS.forEach((_, i) => {
    // Distinct, not unit-length, so normalisation is visible: word i has 2 at position i % 4 and i+1 at (i+1) % 4.
    const v = [0, 0, 0, 0];
    v[i % TINY_DIM] = 2;
    v[(i + 1) % TINY_DIM] = i + 1;
    rows.push(v);
  });
  return rows;
}

/** What the model must return for `text`: the mean of its tokens' rows, normalised to unit length. */
export function expectedEmbedding(text: string): number[] {
  const table = tinyTable();
  const ids = text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => (TINY_WORDS.includes(w) ? TINY_WORDS.indexOf(w) + 2 : 1));
  const mean = Array.from({ length: TINY_DIM }, (_, d) => ids.reduce((s, id) => s + table[id]![d]!, 0) / ids.length);
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

/** Writes the model folder at `dir` (its weights as `weightFile` under onnx/) and returns `dir`. */
export function writeTinyOnnxModel(dir: string, weightFile = "model.onnx"): string {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", weightFile), embeddingModel(tinyTable()));
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ model_type: "bert", architectures: ["BertModel"], hidden_size: TINY_DIM }),
  );
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const vocab = Object.fromEntries([["[PAD]", 0], ["[UNK]", 1], ...TINY_WORDS.map((w, i) => [w, i + 2])]);
  writeFileSync(
    join(dir, "tokenizer.json"),
    JSON.stringify({
      version: "1.0",
      truncation: null,
      padding: null,
      added_tokens: [special(0, "[PAD]"), special(1, "[UNK]")],
      normalizer: { type: "Lowercase" },
      pre_tokenizer: { type: "WhitespaceSplit" },
      post_processor: null,
      decoder: null,
      model: { type: "WordLevel", vocab, unk_token: "[UNK]" },
    }),
  );
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "PreTrainedTokenizer",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      model_max_length: 64,
    }),
  );
  return dir;
}
