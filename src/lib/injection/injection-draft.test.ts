import { describe, expect, it } from "vitest";
import { MemoryKeyValueStore } from "../storage/kv.ts";
import { InjectionDraft } from "./injection-draft.svelte.ts";

const draftIn = (store = new MemoryKeyValueStore()) => new InjectionDraft(store, "s1");
const json = (value: unknown) => JSON.stringify(value, null, 2);

describe("one draft behind the Form and JSON tabs", () => {
  it("injects JSON edits from the Form tab too, and form edits from the JSON tab", () => {
    const draft = draftIn();
    draft.setValue("text", "from the form");
    draft.setTab("json");
    expect(JSON.parse(draft.json)).toEqual({ role: "notification", text: "from the form", level: "info" });
    draft.setJson(json({ role: "notification", text: "edited in JSON", level: "warning" }));
    draft.setTab("form");
    expect(draft.values).toMatchObject({ text: "edited in JSON", level: "warning" });
    expect(draft.take()).toMatchObject({ role: "notification", text: "edited in JSON", level: "warning" });
    draft.setValue("text", "edited in the form again");
    expect(JSON.parse(draft.json)).toMatchObject({ text: "edited in the form again", level: "warning" });
    expect(draft.take()).toMatchObject({ text: "edited in the form again", level: "warning" });
  });

  it("makes the Type follow the JSON's role", () => {
    const draft = draftIn();
    draft.setTab("json");
    draft.setJson(json({ role: "user", content: [{ type: "text", text: "hi" }] }));
    expect(draft.kind).toBe("user");
    expect(draft.values).toEqual({ text: "hi" });
    draft.setJson(json({ role: "wizard" }));
    expect(draft.kind).toBeUndefined();
    expect(draft.formCannotShow).toBe('its role "wizard" is none of the types');
  });

  it("keeps the fields the form does not show, and the JSON's timestamp, when the form is edited", () => {
    const draft = draftIn();
    draft.setJson(
      json({
        role: "approval_request",
        action: "Deploy",
        status: "pending",
        toolCallId: "call-7",
        timestamp: 1234,
      }),
    );
    expect(draft.kept).toEqual(["toolCallId", "timestamp"]);
    draft.setValue("action", "Deploy to production");
    expect(draft.take()).toEqual({
      role: "approval_request",
      action: "Deploy to production",
      status: "pending",
      toolCallId: "call-7",
      timestamp: 1234,
    });
    expect(JSON.parse(draft.json)).toMatchObject({ toolCallId: "call-7", timestamp: 1234 });
  });

  it("never replaces a JSON the form cannot show: the form says why, and only an explicit discard drops it", () => {
    const draft = draftIn();
    draft.setValue("text", "the form's text");
    const withImage = {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", data: "aGk=", mimeType: "image/png" },
      ],
    };
    draft.setJson(json(withImage));
    expect(draft.kind).toBe("user");
    expect(draft.formCannotShow).toBe('it would change "content"');
    // Switching types would lose it: refused.
    draft.setKind("notification");
    expect(draft.kind).toBe("user");
    expect(draft.take()).toMatchObject(withImage);
    draft.discardJsonEdits();
    expect(draft.formCannotShow).toBeUndefined();
    expect(draft.take()).toMatchObject({ role: "notification", text: "the form's text" });
  });

  it("refuses to show in the form what it would change: numbers written as text, levels it does not offer", () => {
    const draft = draftIn();
    draft.setJson(json({ role: "progress", text: "x", fraction: "0.5" }));
    expect(draft.formCannotShow).toBe('it would change "fraction"');
    draft.setJson(json({ role: "notification", text: "x", level: "fatal" }));
    expect(draft.formCannotShow).toBe('it would change "level"');
    draft.setJson('{"role": "notification", "text": ');
    expect(draft.formCannotShow).toBe("it is not valid JSON yet");
  });

  it("shows in the JSON what was typed into a field even when it is not a value of its type", () => {
    const draft = draftIn();
    draft.setKind("bashExecution");
    draft.setValue("command", "ls");
    draft.setValue("exitCode", "abc");
    expect(JSON.parse(draft.json)).toMatchObject({ command: "ls", exitCode: "abc" });
    expect(draft.result.ok).toBe(false);
    expect(draft.take()).toBeUndefined();
  });

  it("keeps each type's values when switching types", () => {
    const draft = draftIn();
    draft.setValue("text", "a notification");
    draft.setKind("custom");
    draft.setValue("customType", "ci");
    draft.setKind("notification");
    expect(draft.values.text).toBe("a notification");
    draft.setKind("custom");
    expect(draft.values.customType).toBe("ci");
  });

  it("is kept per session across a reload, JSON edits the form cannot show included, and forgotten once injected", async () => {
    const store = new MemoryKeyValueStore();
    const draft = draftIn(store);
    draft.setTab("json");
    draft.setJson('{"role": "notification", "text": "half');
    await draft.flush();
    const reloaded = draftIn(store);
    await reloaded.restore();
    expect(reloaded.tab).toBe("json");
    expect(reloaded.json).toBe('{"role": "notification", "text": "half');
    expect(reloaded.formCannotShow).toBe("it is not valid JSON yet");
    expect(await new InjectionDraft(store, "other").take()).toBeUndefined();

    reloaded.setJson(json({ role: "notification", text: "whole", level: "info" }));
    expect(reloaded.take()).toMatchObject({ text: "whole" });
    reloaded.reset();
    await reloaded.flush();
    expect(await store.get("inject:s1")).toBeUndefined();
    expect(reloaded.values.text).toBe("");
  });

  it("never changes the delivery by itself: a choice that stops applying asks for a new one", () => {
    const draft = draftIn();
    draft.offerDelivery("steer");
    draft.setDelivery("followUp");
    draft.offerDelivery("append");
    expect(draft.deliveryFor(true)).toBe("followUp");
    // The run ended: Follow-up no longer applies, and nothing takes its place.
    expect(draft.deliveryFor(false)).toBeUndefined();
    expect(draft.chosenDelivery).toBe("followUp");
    draft.setDelivery("append");
    expect(draft.deliveryFor(false)).toBe("append");
  });
});
