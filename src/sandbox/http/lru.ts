/**
 * A least-recently-used cache of response bodies, bounded by entry count and by total bytes (a full
 * people list is much larger than a top-10, so a count alone would not bound memory).
 * A Map keeps insertion order; re-inserting on a hit moves the entry to the young end.
 */
export class BodyCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 2000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string): Buffer | undefined {
    const body = this.entries.get(key);
    if (body !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  set(key: string, body: Buffer): void {
    if (body.length > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.length;
    }
    this.entries.set(key, body);
    this.bytes += body.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.bytes -= this.entries.get(oldest.value)!.length;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
