/** A parsed JSON or YAML value that is an object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Where a pass over listed items tries first: the place after the last one it found. */
export interface Cursor {
  next: number;
}

/**
 * The places of items looked up by key in about the order they are listed (a scan's order): the place
 * after the last one found is tried first, and a map by key is made only when that guess fails (an
 * item added, gone or moved). `keyOf` gives the key of the item at a place; keys are unique. Items may
 * be added at the end (`append`).
 */
export class ListedOrder {
  readonly #keyOf: (at: number) => unknown;
  #size: number;
  readonly #cursor: Cursor = { next: 0 };
  #byKey: Map<unknown, number> | undefined;

  constructor(size: number, keyOf: (at: number) => unknown) {
    this.#size = size;
    this.#keyOf = keyOf;
  }

  /** The place of the item with this key; -1 when there is none. `cursor`: a pass's own guess (by default one the order keeps), moved past the place found. */
  find(key: unknown, cursor: Cursor = this.#cursor): number {
    let at = cursor.next;
    if (at >= this.#size || this.#keyOf(at) !== key) {
      if (!this.#byKey) {
        this.#byKey = new Map();
        for (let i = 0; i < this.#size; i++) this.#byKey.set(this.#keyOf(i), i);
      }
      at = this.#byKey.get(key) ?? -1;
      if (at < 0) return -1;
    }
    cursor.next = at + 1;
    return at;
  }

  /** One more item, listed after the others, whose key `keyOf` now gives at the place returned. */
  append(key: unknown): number {
    const at = this.#size++;
    this.#byKey?.set(key, at);
    return at;
  }
}
