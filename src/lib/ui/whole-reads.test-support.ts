import { vi } from "vitest";

/**
 * How many times `run` read `text` whole with `slice` or `charCodeAt` (each of which makes a rope one flat
 * string): told by the length, which no other string of these tests has.
 */
export function wholeReads(text: string, run: () => void): number {
  const slice = vi.spyOn(String.prototype, "slice");
  const charCodeAt = vi.spyOn(String.prototype, "charCodeAt");
  try {
    run();
    const readers: unknown[] = [...slice.mock.contexts, ...charCodeAt.mock.contexts];
    return readers.filter((reader) => String(reader).length === text.length).length;
  } finally {
    slice.mockRestore();
    charCodeAt.mockRestore();
  }
}
