/**
 * Read-only folders for tests of commands that must never write a run: a
 * snapshot of every file (to prove nothing was written, created or removed)
 * and a lock that makes a folder read-only for this very process.
 *
 * chmod stops an ordinary user but not root, and tests may run as root (CI
 * does). As root the lock adds the immutable attribute (`chattr +i`), which
 * stops root as well, where the file system and the process's capabilities
 * allow it. Whichever applies is reported, and a write probe checks it: a test
 * can then assert the refusals only when the folder really is read-only, and
 * the snapshots always.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file and folder under `dir`: a file's size, mtime and SHA-256, a folder's mtime (it changes when an entry is added or removed). */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    const s = statSync(path);
    const name = relative(dir, path) || ".";
    if (s.isDirectory()) {
      out[`${name}/`] = `mtime ${s.mtimeMs}`;
      for (const entry of readdirSync(path)) walk(join(path, entry));
      return;
    }
    const hash = createHash("sha256").update(readFileSync(path)).digest("hex");
    out[name] = `${s.size} bytes, mtime ${s.mtimeMs}, sha256 ${hash}`;
  };
  walk(dir);
  return out;
}

/** How a lock made a folder read-only for this process; "none" when nothing could. */
export type LockKind = "chmod" | "immutable" | "none";

export interface DirLock {
  kind: LockKind;
  /** Makes the folder writable again (for clean-up). */
  unlock(): void;
}

function chmodTree(path: string, writable: boolean): void {
  const s = statSync(path);
  if (s.isDirectory()) {
    if (writable) chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) chmodTree(join(path, entry), writable);
    if (!writable) chmodSync(path, 0o555);
  } else {
    chmodSync(path, writable ? 0o644 : 0o444);
  }
}

/** True when this process can create a file in `dir` (the probe is removed at once). */
export function canWrite(dir: string): boolean {
  const probe = join(dir, ".write-probe");
  try {
    writeFileSync(probe, "");
  } catch {
    return false;
  }
  rmSync(probe, { force: true });
  return true;
}

const chattr = (flag: "+i" | "-i", dir: string) =>
  spawnSync("chattr", ["-R", flag, dir], { encoding: "utf8" }).status === 0;

/** Makes `dir` and everything in it read-only for this process, as far as it can. */
export function lockDir(dir: string): DirLock {
  chmodTree(dir, false);
  let immutable = false;
  const unlock = () => {
    if (immutable) chattr("-i", dir);
    chmodTree(dir, true);
  };
  if (!canWrite(dir)) return { kind: "chmod", unlock };
  immutable = chattr("+i", dir);
  if (immutable && !canWrite(dir)) return { kind: "immutable", unlock };
  return { kind: "none", unlock };
}
