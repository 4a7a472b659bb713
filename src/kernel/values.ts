/** A parsed JSON or YAML value that is an object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The places of items looked up by key in about the order they are listed (a scan's order): the place
 * after the last one found is tried first, and a map by key is made only when that guess fails (an
 * item added, gone or moved). `keyOf` gives the key of the item at a place; keys are unique.
 */
export class ListedOrder {
  readonly #keyOf: (at: number) => unknown;
  readonly #size: number;
  #next = 0;
  #byKey: Map<unknown, number> | undefined;

  constructor(size: number, keyOf: (at: number) => unknown) {
    this.#size = size;
    this.#keyOf = keyOf;
  }

  /** The place of the item with this key; -1 when there is none. */
  find(key: unknown): number {
    let at = this.#next;
    if (at >= this.#size || this.#keyOf(at) !== key) {
      if (!this.#byKey) {
        this.#byKey = new Map();
        for (let i = 0; i < this.#size; i++) this.#byKey.set(this.#keyOf(i), i);
      }
      at = this.#byKey.get(key) ?? -1;
      if (at < 0) return -1;
    }
    this.#next = at + 1;
    return at;
  }
}
