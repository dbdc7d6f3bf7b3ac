import { describe, expect, it } from "vitest";
import { createNotification } from "../messages/factories.ts";
import { defaultSettings, readSettings } from "./session-settings.ts";

describe("readSettings", () => {
  it("repairs settings field by field instead of refusing the session", () => {
    const settings = readSettings({
      model: { provider: "mirror", id: "mirror-thinking" },
      thinkingLevel: "bogus",
      context: { policies: { notification: "userText", progress: 7 } },
      toolApprovals: { calculate: true, save_note: "yes" },
      nextTurn: [createNotification("kept", "info", 1), { role: "wizard" }],
    });
    expect(settings.model).toEqual({ provider: "mirror", id: "mirror-thinking" });
    expect(settings.thinkingLevel).toBe("off");
    expect(settings.context.policies).toEqual({
      notification: "userText",
      approval_request: "hidden",
      progress: "hidden",
    });
    expect(settings.toolApprovals).toMatchObject({ calculate: true, save_note: true });
    expect(settings.nextTurn).toEqual([createNotification("kept", "info", 1)]);
  });

  it("gives the defaults for anything that is not an object", () => {
    expect(readSettings(undefined)).toEqual(defaultSettings());
    expect(readSettings("x")).toEqual(defaultSettings());
  });
});
