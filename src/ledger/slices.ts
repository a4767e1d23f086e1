/**
 * Long writes give the event loop a turn every few milliseconds, so the
 * service's other requests keep answering while a large session is written
 * (one 30 MiB turn held every client of `membench serve` for 13–38 s).
 * `await slices.tick()` inside a loop yields only once its slice is spent: an
 * `await` on a settled promise alone lets no I/O in.
 */
export class Slices {
  private started = performance.now();

  constructor(private readonly sliceMs = 10) {}

  async tick(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
