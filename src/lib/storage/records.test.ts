import { describe, expect, it } from "vitest";
import { createUserMessage } from "../messages/factories.ts";
import { readMessageRecord, readSessionMeta, SCHEMA_VERSION } from "./records.ts";

describe("readMessageRecord", () => {
  const message = createUserMessage("hi", 1);

  it("reads a current record", () => {
    expect(readMessageRecord({ schema: SCHEMA_VERSION, sessionId: "s", seq: 3, message })).toEqual({
      ok: true,
      value: { schema: SCHEMA_VERSION, sessionId: "s", seq: 3, message },
    });
  });

  it("migrates a version-0 record (a bare message) to the current schema", () => {
    expect(readMessageRecord({ sessionId: "s", seq: 0, ...message })).toEqual({
      ok: true,
      value: { schema: SCHEMA_VERSION, sessionId: "s", seq: 0, message },
    });
  });

  it("refuses a record written by a newer version, saying so", () => {
    const read = readMessageRecord({ schema: SCHEMA_VERSION + 1, sessionId: "s", seq: 0, message });
    expect(read).toEqual({
      ok: false,
      reason: expect.stringMatching(/newer version of the playground \(schema 2/),
    });
  });

  it("refuses damaged records with the validator's words", () => {
    expect(
      readMessageRecord({ schema: 1, sessionId: "s", seq: 1, message: { role: "wizard", timestamp: 1 } }),
    ).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Unknown role "wizard"/),
    });
    expect(readMessageRecord("garbage")).toEqual({ ok: false, reason: "the record is not an object" });
    expect(readMessageRecord({ schema: "x", sessionId: "s", seq: 1, message })).toMatchObject({ ok: false });
  });
});

describe("readSessionMeta", () => {
  it("repairs settings field by field instead of refusing the session", () => {
    const read = readSessionMeta({
      schema: 1,
      id: "s1",
      title: "T",
      settings: {
        model: { provider: "mirror", id: "mirror-thinking" },
        thinkingLevel: "bogus",
        context: { policies: { notification: "userText", progress: 7 } },
      },
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.settings.model).toEqual({ provider: "mirror", id: "mirror-thinking" });
    expect(read.value.settings.thinkingLevel).toBe("off");
    expect(read.value.settings.context.policies).toEqual({
      notification: "userText",
      approval_request: "hidden",
      progress: "hidden",
    });
    expect(read.value.settings.toolApprovals.save_note).toBe(true);
  });
});
