import { describe, expect, it } from "vitest";
import type { SessionMeta } from "../storage/records.ts";
import { SessionEvents } from "./session-events.ts";

const meta = (revision: number): SessionMeta =>
  ({ id: "s", title: "t", createdAt: 0, updatedAt: 0, revision }) as unknown as SessionMeta;

describe("SessionEvents", () => {
  it("delivers an event to its type's handlers only, in the order they subscribed", () => {
    const events = new SessionEvents();
    const heard: string[] = [];
    events.on("written", ({ meta: m }) => heard.push(`first ${m.revision}`));
    events.on("settingsStored", () => heard.push("settings"));
    events.on("written", ({ meta: m }) => heard.push(`second ${m.revision}`));
    events.emit("written", { meta: meta(3) });
    expect(heard).toEqual(["first 3", "second 3"]);
  });

  it("stops delivering to a handler once it unsubscribes, even from inside a delivery", () => {
    const events = new SessionEvents();
    const heard: string[] = [];
    const stopA = events.on("metaAdopted", () => {
      heard.push("a");
      stopA();
    });
    events.on("metaAdopted", () => heard.push("b"));
    events.emit("metaAdopted", { meta: meta(2), previous: meta(1) });
    events.emit("metaAdopted", { meta: meta(3), previous: meta(2) });
    expect(heard).toEqual(["a", "b", "b"]);
  });

  it("lets every handler hear the event when one throws, then reports that error", () => {
    const events = new SessionEvents();
    const heard: string[] = [];
    events.on("storageStatus", () => {
      throw new Error("broken view");
    });
    events.on("storageStatus", ({ status }) => heard.push(`unsaved ${status.unsaved}`));
    expect(() => events.emit("storageStatus", { status: { unsaved: 2, error: undefined } })).toThrow(
      "broken view",
    );
    expect(heard).toEqual(["unsaved 2"]);
  });

  it("reports every failure when several handlers throw", () => {
    const events = new SessionEvents();
    events.on("written", () => {
      throw new Error("one");
    });
    events.on("written", () => {
      throw new Error("two");
    });
    expect(() => events.emit("written", { meta: meta(1) })).toThrow(AggregateError);
  });

  it("forgets every handler when cleared", () => {
    const events = new SessionEvents();
    const heard: string[] = [];
    events.on("written", () => heard.push("written"));
    events.on("callRecorded", () => heard.push("call"));
    events.clear();
    events.emit("written", { meta: meta(1) });
    expect(heard).toEqual([]);
  });
});
