/**
 * A `Map` that keeps at most `capacity` entries, dropping the least recently used (read or written)
 * when a new one would pass it. Executors keep their structures and bind groups in these, so a plan
 * fed ever new buffers or shapes holds a bounded number of them (dropped bind groups are left to the
 * garbage collector: a command buffer recorded with one keeps what it needs alive).
 *
 * @example
 * ```ts
 * const groups = new LruMap<string, GPUBindGroup[]>(32);
 * groups.set('0|input:1', made);
 * groups.get('0|input:1'); // made, now the most recently used
 * ```
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();
  /** The most recently used entry (the last key the map holds), for a lookup without reordering. */
  private newest: K | undefined;
  private newestValue: V | undefined;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  /** The value of `key`, marked as the most recently used. */
  get(key: K): V | undefined {
    // A frame loop asks for the same entry again and again: it is already the most recent.
    if (key === this.newest && this.newestValue !== undefined) return this.newestValue;
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.newest = key;
    this.newestValue = value;
    // Map keeps insertion order: moving the entry to the end makes the first entry the least recent.
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** Stores `value` as the most recently used, dropping the least recently used entry past capacity. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    this.newestValue = value;
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.newestValue = undefined;
  }
}
