/**
 * Runs tasks one at a time per key, in arrival order; tasks of different keys
 * run concurrently. A failed task does not stop the ones queued after it.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => T | Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // Forget a key once its last task is done, so the map does not grow with every key ever seen.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves when every task queued for `key` so far has settled. */
  async idle(key: string): Promise<void> {
    await this.tails.get(key);
  }
}
