import { MAX_NESTING_DEPTH } from "../messages/nesting.ts";

export interface JsonDisplayOptions {
  /** Spaces per level; 0 writes one line, as `JSON.stringify(value)` does. */
  indent?: number;
  /** Levels shown before a value is replaced by a marker. */
  maxDepth?: number;
  /** Characters written before the output is cut, with a note saying so. */
  maxChars?: number;
}

/** Everything the playground accepts nests at most this deep, so all of it is shown. */
export const DISPLAY_MAX_DEPTH = MAX_NESTING_DEPTH;
/** Half a million characters already take a noticeable moment to lay out; larger values are cut. */
export const DISPLAY_MAX_CHARS = 500_000;

/**
 * JSON for people to read, as `JSON.stringify(value, null, indent)` writes it for ordinary values, but
 * bounded and total: it never throws and its work never grows past the limits, whatever it is given.
 * Values nested deeper than `maxDepth`, cycles, getters that throw, BigInts and output past `maxChars` are
 * shown with a marker instead of failing, so rendering a hostile or broken value cannot break the page.
 */
export function formatJsonBounded(value: unknown, options: JsonDisplayOptions = {}): string {
  const printer = new BoundedJsonPrinter(
    options.indent ?? 2,
    options.maxDepth ?? DISPLAY_MAX_DEPTH,
    options.maxChars ?? DISPLAY_MAX_CHARS,
  );
  return printer.print(value);
}

class BoundedJsonPrinter {
  readonly #indent: string;
  readonly #maxDepth: number;
  readonly #maxChars: number;
  readonly #parts: string[] = [];
  /** Objects on the path from the root to the value being written: seeing one again is a cycle. */
  readonly #ancestors = new Set<object>();
  #length = 0;
  #full = false;

  constructor(indent: number, maxDepth: number, maxChars: number) {
    this.#indent = " ".repeat(Math.max(0, Math.min(indent, 10)));
    this.#maxDepth = maxDepth;
    this.#maxChars = maxChars;
  }

  print(value: unknown): string {
    const start = this.#prepare(value, "");
    if (start === undefined) return "undefined";
    this.#value(start, 0);
    const text = this.#parts.join("");
    if (!this.#full) return text;
    return `${text.slice(0, this.#maxChars)}\n… cut here: the value is longer than ${this.#maxChars.toLocaleString("en-US")} characters`;
  }

  #write(text: string): void {
    if (this.#full) return;
    this.#parts.push(text);
    this.#length += text.length;
    if (this.#length > this.#maxChars) this.#full = true;
  }

  /** What JSON would write for `value` under `key`: `toJSON` applied, or undefined when it is left out. */
  #prepare(value: unknown, key: string): unknown {
    try {
      if (typeof value === "object" && value !== null && "toJSON" in value) {
        const toJSON = (value as { toJSON: unknown }).toJSON;
        if (typeof toJSON === "function") return (toJSON as (key: string) => unknown).call(value, key);
      }
    } catch (error) {
      return unreadable(error);
    }
    if (typeof value === "function" || typeof value === "symbol" || value === undefined) return undefined;
    return value;
  }

  #value(value: unknown, depth: number): void {
    if (this.#full) return;
    switch (typeof value) {
      case "string":
        this.#write(JSON.stringify(value));
        return;
      case "number":
        this.#write(Number.isFinite(value) ? String(value) : "null");
        return;
      case "boolean":
        this.#write(String(value));
        return;
      case "bigint":
        this.#write(`${value}n`);
        return;
      case "object":
        if (value === null) this.#write("null");
        else this.#object(value, depth);
        return;
      default:
        this.#write("null");
    }
  }

  #object(value: object, depth: number): void {
    if (this.#ancestors.has(value)) {
      this.#write('"[circular]"');
      return;
    }
    if (depth >= this.#maxDepth) {
      this.#write(`"[nested deeper than ${this.#maxDepth} levels]"`);
      return;
    }
    const isArray = Array.isArray(value);
    let keys: readonly string[];
    let count: number;
    try {
      keys = isArray ? [] : Object.keys(value);
      count = isArray ? (value as unknown[]).length : keys.length;
    } catch (error) {
      this.#write(JSON.stringify(unreadable(error)));
      return;
    }
    const inner = this.#indent === "" ? "" : `\n${this.#indent.repeat(depth + 1)}`;
    const outer = this.#indent === "" ? "" : `\n${this.#indent.repeat(depth)}`;
    const separator = this.#indent === "" ? ":" : ": ";
    this.#ancestors.add(value);
    this.#write(isArray ? "[" : "{");
    let written = 0;
    for (let index = 0; index < count && !this.#full; index++) {
      const key = isArray ? String(index) : (keys[index] ?? "");
      let item: unknown;
      try {
        item = this.#prepare((value as Record<string, unknown>)[key], key);
      } catch (error) {
        item = unreadable(error);
      }
      if (item === undefined && !isArray) continue;
      this.#write(`${written > 0 ? "," : ""}${inner}`);
      if (!isArray) this.#write(`${JSON.stringify(key)}${separator}`);
      if (item === undefined) this.#write("null");
      else this.#value(item, depth + 1);
      written++;
    }
    this.#ancestors.delete(value);
    this.#write(`${written > 0 ? outer : ""}${isArray ? "]" : "}"}`);
  }
}

function unreadable(error: unknown): string {
  return `[unreadable: ${error instanceof Error ? error.message : String(error)}]`;
}
