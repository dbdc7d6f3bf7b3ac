import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { keyValueStore, MemoryKeyValueStore } from "../../storage/kv.ts";
import { addNote, readNotes } from "./notes-store.ts";

describe("notes", () => {
  it("are kept in the key-value store, in order, and survive a new reader", async () => {
    const store = keyValueStore();
    await addNote("first", store);
    const notes = await addNote("second", store);
    expect(notes.map((note) => note.text)).toEqual(["first", "second"]);
    expect((await readNotes(keyValueStore())).map((note) => note.text)).toEqual(["first", "second"]);
  });

  it("ignore damaged values instead of failing the tool", async () => {
    const store = new MemoryKeyValueStore();
    await store.set("notes", [{ text: "ok", savedAt: 1 }, { text: 3 }, "junk"]);
    expect(await readNotes(store)).toEqual([{ text: "ok", savedAt: 1 }]);
    await store.set("notes", "not a list");
    expect(await readNotes(store)).toEqual([]);
  });
});
