/**
 * The notes the `save_note` demo tool writes: a tiny store in localStorage, so the effect of an
 * approved tool call is visible and survives reloads. Storage failures are reported, not thrown away.
 */
export interface Note {
  text: string;
  savedAt: number;
}

const KEY = "pi-playground:notes";

export function readNotes(storage: Storage | undefined = globalThis.localStorage): Note[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter(
          (note): note is Note => typeof note?.text === "string" && typeof note?.savedAt === "number",
        )
      : [];
  } catch {
    return [];
  }
}

export function addNote(text: string, storage: Storage | undefined = globalThis.localStorage): Note[] {
  if (!storage) throw new Error("this browser has no localStorage, so the note cannot be kept");
  const notes = [...readNotes(storage), { text, savedAt: Date.now() }];
  storage.setItem(KEY, JSON.stringify(notes));
  return notes;
}
