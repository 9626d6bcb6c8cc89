// A binary heap keyed by id, with removal and in-place update: the scheduler's activeQ and backoffQ, a
// scaled clock's timers (timer-queue.ts). Upstream: pkg/scheduler/backend/heap/heap.go.

export class KeyedHeap<T> {
  readonly #items: T[] = [];
  readonly #pos = new Map<string, number>();
  readonly #key: (item: T) => string;
  readonly #less: (a: T, b: T) => boolean;

  constructor(key: (item: T) => string, less: (a: T, b: T) => boolean) {
    this.#key = key;
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }
  has(key: string): boolean {
    return this.#pos.has(key);
  }
  get(key: string): T | undefined {
    const i = this.#pos.get(key);
    return i === undefined ? undefined : this.#items[i];
  }
  peek(): T | undefined {
    return this.#items[0];
  }
  values(): readonly T[] {
    return this.#items;
  }

  /** Adds, or replaces and re-sorts an item with the same key. */
  push(item: T): void {
    const k = this.#key(item);
    const i = this.#pos.get(k);
    if (i !== undefined) {
      this.#items[i] = item;
      this.#fix(i);
      return;
    }
    this.#items.push(item);
    this.#pos.set(k, this.#items.length - 1);
    this.#up(this.#items.length - 1);
  }

  pop(): T | undefined {
    const top = this.#items[0];
    if (top === undefined) return undefined;
    this.#removeAt(0);
    return top;
  }

  remove(key: string): T | undefined {
    const i = this.#pos.get(key);
    if (i === undefined) return undefined;
    const item = this.#items[i];
    this.#removeAt(i);
    return item;
  }

  #removeAt(i: number): void {
    const items = this.#items;
    const last = items.length - 1;
    this.#pos.delete(this.#key(items[i] as T));
    if (i !== last) {
      items[i] = items[last] as T;
      this.#pos.set(this.#key(items[i] as T), i);
    }
    items.pop();
    if (i < items.length) this.#fix(i);
  }

  #fix(i: number): void {
    if (!this.#up(i)) this.#down(i);
  }

  #swap(i: number, j: number): void {
    const items = this.#items;
    const a = items[i] as T;
    const b = items[j] as T;
    items[i] = b;
    items[j] = a;
    this.#pos.set(this.#key(b), i);
    this.#pos.set(this.#key(a), j);
  }

  #up(i: number): boolean {
    let moved = false;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(this.#items[i] as T, this.#items[parent] as T)) break;
      this.#swap(i, parent);
      i = parent;
      moved = true;
    }
    return moved;
  }

  #down(i: number): void {
    const n = this.#items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      let best = l;
      const r = l + 1;
      if (r < n && this.#less(this.#items[r] as T, this.#items[l] as T)) best = r;
      if (!this.#less(this.#items[best] as T, this.#items[i] as T)) return;
      this.#swap(i, best);
      i = best;
    }
  }
}
