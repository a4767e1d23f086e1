/**
 * Shares one copy of each repeated string. LongMemEval draws every haystack
 * from one pool of sessions, so the same turns recur across hundreds of
 * questions; without this, LongMemEval_m would hold each of them hundreds of
 * times in memory.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }
}
