/**
 * The state one load carries: which files were read, the warnings gathered in
 * lenient mode, and the episodes validated so far.
 */
import { DataError, type DataErrorWhere } from "../../core/errors.ts";
import type { Dataset, Episode, EpisodeInput } from "../../core/model.ts";
import { validateEpisode } from "../../core/validate.ts";
import type { LoadOptions } from "../types.ts";
import { fileSize } from "./files.ts";

export class LoadContext {
  readonly strict: boolean;
  readonly warnings: string[] = [];
  readonly files: Array<{ path: string; bytes: number }> = [];
  readonly episodes: Episode[] = [];
  private readonly episodeIds = new Set<string>();

  constructor(
    readonly benchmark: string,
    readonly path: string,
    options: LoadOptions = {},
  ) {
    this.strict = options.strict ?? true;
  }

  /** Records that `file` was read (for hashes, sizes and MB/s). */
  read(file: string): void {
    this.files.push({ path: file, bytes: fileSize(file) });
  }

  /** Something suspicious that could change a score: an error in strict mode, a warning otherwise. */
  issue(message: string, where: DataErrorWhere): void {
    const error = new DataError(message, where);
    if (this.strict) throw error;
    this.warnings.push(error.message);
  }

  /**
   * A flaw that cannot change a score (an unreadable evidence token, a
   * redundant count that disagrees): a warning in both modes, so a strict run
   * still loads the official release and `data inspect` still lists it.
   */
  warn(message: string, where: DataErrorWhere): void {
    this.warnings.push(new DataError(message, where).message);
  }

  /** Validates and keeps one episode; duplicate episode ids are an error. */
  add(input: EpisodeInput, where: { file: string; record?: string }): Episode {
    const { episode, warnings } = validateEpisode(input, where);
    if (this.episodeIds.has(episode.id)) {
      throw new DataError(`duplicate episode id "${episode.id}"`, { ...where, field: "id" });
    }
    this.episodeIds.add(episode.id);
    this.episodes.push(episode);
    this.warnings.push(...warnings);
    return episode;
  }

  dataset(variant?: string): Dataset {
    if (!this.episodes.length) {
      throw new DataError(`no ${this.benchmark} episodes found`, { file: this.path });
    }
    return {
      benchmark: this.benchmark,
      variant,
      source: { path: this.path, files: this.files },
      episodes: this.episodes,
      warnings: this.warnings,
    };
  }
}
