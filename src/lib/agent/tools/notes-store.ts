import { keyValueStore, type KeyValueStore } from "../../storage/kv.ts";

/**
 * The notes the `save_note` demo tool writes, kept in the browser's key-value store so the effect of an
 * approved tool call is visible and survives reloads. Storage failures are reported, not thrown away.
 */
export interface Note {
  text: string;
  savedAt: number;
}

const KEY = "notes";

function readList(raw: unknown): Note[] {
  return Array.isArray(raw)
    ? raw.filter(
        (note): note is Note =>
          typeof (note as Note | undefined)?.text === "string" && typeof (note as Note).savedAt === "number",
      )
    : [];
}

export async function readNotes(store: KeyValueStore = keyValueStore()): Promise<Note[]> {
  try {
    return readList(await store.get(KEY));
  } catch {
    return [];
  }
}

export async function addNote(text: string, store: KeyValueStore = keyValueStore()): Promise<Note[]> {
  const notes = [...(await readNotes(store)), { text, savedAt: Date.now() }];
  try {
    await store.set(KEY, notes);
  } catch (error) {
    throw new Error(`the note could not be kept: ${(error as Error).message}`, { cause: error });
  }
  return notes;
}
