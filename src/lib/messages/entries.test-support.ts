import type { SessionEntry } from "./entries.ts";

/** A custom entry (the simplest kind) with the id and parent given: for tests of how entries link. */
export function customEntry(id: string, parentId: string | null): SessionEntry {
  return { type: "custom", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", customType: "test" };
}
