import { MAX_NESTING_DEPTH } from "./nesting-limit.ts";

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
 * bounded and total: it never throws, and its work stops at the limits whatever it is given. Values nested
 * deeper than `maxDepth`, cycles, getters that throw, BigInts and output past `maxChars` are shown with a
 * marker instead of failing, so rendering a hostile or broken value cannot break the page.
 */
export function formatJsonBounded(
  value: unknown,
  { indent = 2, maxDepth = DISPLAY_MAX_DEPTH, maxChars = DISPLAY_MAX_CHARS }: JsonDisplayOptions = {},
): string {
  const pad = " ".repeat(indent);
  /** Objects on the path from the root to the value being written: meeting one again is a cycle. */
  const path = new Set<object>();
  let out = "";

  /** What JSON writes for `item`: `toJSON` applied; undefined for what an object leaves out. */
  const prepare = (read: () => unknown): unknown => {
    try {
      const item = read();
      const toJSON =
        typeof item === "object" && item !== null ? (item as { toJSON?: unknown }).toJSON : undefined;
      const prepared = typeof toJSON === "function" ? (toJSON as () => unknown).call(item) : item;
      return typeof prepared === "function" || typeof prepared === "symbol" ? undefined : prepared;
    } catch (error) {
      return `[unreadable: ${error instanceof Error ? error.message : String(error)}]`;
    }
  };

  const write = (item: unknown, depth: number): void => {
    if (out.length > maxChars) return;
    if (typeof item === "bigint") out += `${item}n`;
    else if (typeof item === "number") out += Number.isFinite(item) ? String(item) : "null";
    else if (typeof item !== "object" || item === null) out += JSON.stringify(item) ?? "null";
    else if (path.has(item)) out += '"[circular]"';
    else if (depth >= maxDepth) out += `"[nested deeper than ${maxDepth} levels]"`;
    else {
      const isArray = Array.isArray(item);
      // Arrays are walked by index, so that a huge one costs only what is written of it.
      const keys = prepare(() => (isArray ? (item as unknown[]).length : Object.keys(item)));
      if (typeof keys !== "number" && !Array.isArray(keys)) {
        write(keys, depth);
        return;
      }
      const count = typeof keys === "number" ? keys : keys.length;
      const inner = indent ? `\n${pad.repeat(depth + 1)}` : "";
      let written = 0;
      path.add(item);
      out += isArray ? "[" : "{";
      for (let index = 0; index < count && out.length <= maxChars; index++) {
        const key = isArray ? index : String((keys as unknown[])[index]);
        const child = prepare(() => (item as Record<string | number, unknown>)[key]);
        if (child === undefined && !isArray) continue;
        out += `${written++ ? "," : ""}${inner}${isArray ? "" : `${JSON.stringify(key)}:${indent ? " " : ""}`}`;
        write(child ?? null, depth + 1);
      }
      path.delete(item);
      out += `${written && indent ? `\n${pad.repeat(depth)}` : ""}${isArray ? "]" : "}"}`;
    }
  };

  const root = prepare(() => value);
  if (root === undefined) return "undefined";
  write(root, 0);
  return out.length > maxChars
    ? `${out.slice(0, maxChars)}\n… cut here: the value is longer than ${maxChars.toLocaleString("en-US")} characters`
    : out;
}
