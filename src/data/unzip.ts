/**
 * Reads release archives such as LoCoMo's `locomo10.zip`. fflate parses the
 * archive (stored and deflated entries, ZIP64, entries whose sizes follow their
 * data in a data descriptor, as streaming zippers write them); it does not check
 * CRC-32, so each entry's checksum is compared here with the one the central
 * directory records. A damaged or unsupported archive is a DataError naming the file.
 */
import * as zlib from "node:zlib";
import { unzipSync } from "fflate";
import { DataError } from "../core/errors.ts";

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;

let table: Uint32Array | undefined;

/** CRC-32 (IEEE): node:zlib's where it has one (Node ≥ 20.15), else a table. */
function crc32(data: Uint8Array): number {
  const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  if (native) return native(data) >>> 0;
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Entry name → CRC-32 as the central directory records it (ZIP64 directories included). */
function recordedCrcs(buf: Buffer): Map<string, number> {
  const out = new Map<string, number>();
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_558); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return out;
  let count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  if (end >= 20 && buf.readUInt32LE(end - 20) === ZIP64_LOCATOR) {
    const z = Number(buf.readBigUInt64LE(end - 12));
    if (buf.readUInt32LE(z) === ZIP64_EOCD) {
      count = Number(buf.readBigUInt64LE(z + 32));
      p = Number(buf.readBigUInt64LE(z + 48));
    }
  }
  for (let i = 0; i < count && p + 46 <= buf.length && buf.readUInt32LE(p) === CENTRAL; i++) {
    const nameLen = buf.readUInt16LE(p + 28);
    out.set(buf.toString("utf8", p + 46, p + 46 + nameLen), buf.readUInt32LE(p + 16));
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return out;
}

export function unzip(buf: Buffer, file = "(zip)"): ZipEntry[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  } catch (error) {
    const message = (error as Error).message;
    // fflate's words when there is no end-of-central-directory record.
    const what = /invalid zip data/i.test(message)
      ? "not a zip archive (no end-of-central-directory record)"
      : `cannot unzip: ${message}`;
    throw new DataError(what, { file });
  }
  const crcs = recordedCrcs(buf);
  const out: ZipEntry[] = [];
  for (const [name, data] of Object.entries(files)) {
    if (name.endsWith("/")) continue;
    const recorded = crcs.get(name);
    if (recorded !== undefined && crc32(data) !== recorded) {
      throw new DataError("CRC-32 mismatch: the entry is damaged (download it again)", { file, record: name });
    }
    out.push({ name, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) });
  }
  return out;
}
