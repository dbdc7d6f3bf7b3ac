import { describe, expect, it } from "vitest";
import { createUserMessage } from "../messages/factories.ts";
import { readCallBody, readEntryRecord, readSessionMeta, SCHEMA_VERSION } from "./records.ts";

const entry = { type: "message", id: "e1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z" };

describe("readEntryRecord", () => {
  it("reads a current record", () => {
    const raw = {
      schema: SCHEMA_VERSION,
      sessionId: "s",
      seq: 3,
      rev: 2,
      entry: { ...entry, message: createUserMessage("hi", 1) },
    };
    expect(readEntryRecord(raw)).toEqual({ ok: true, value: raw });
  });

  it("refuses a record written by a newer version, saying so", () => {
    const read = readEntryRecord({
      schema: 99,
      sessionId: "s",
      seq: 0,
      entry: { ...entry, message: createUserMessage("x") },
    });
    expect(read).toEqual({
      ok: false,
      reason: expect.stringMatching(/newer version of the playground \(schema 99/),
    });
  });

  it("refuses damaged records with the validator's words, and entries without an id or parent", () => {
    expect(
      readEntryRecord({
        schema: SCHEMA_VERSION,
        sessionId: "s",
        seq: 0,
        rev: 1,
        entry: { ...entry, message: { role: "user", content: 42, timestamp: 1 } },
      }),
    ).toEqual({
      ok: false,
      reason: expect.stringContaining("content must be text or a list of content parts"),
    });
    expect(
      readEntryRecord({
        schema: SCHEMA_VERSION,
        sessionId: "s",
        seq: 0,
        rev: 1,
        entry: { type: "message", message: createUserMessage("x") },
      }),
    ).toEqual({
      ok: false,
      reason: "the message entry is not valid (id: missing; parentId: missing)",
    });
    expect(readEntryRecord("nonsense")).toEqual({ ok: false, reason: "the record is not an object" });
  });
});

describe("readSessionMeta", () => {
  it("repairs fields from defaults instead of refusing the session, and leaves settings to the runtime", () => {
    const read = readSessionMeta({
      schema: 1,
      id: "s1",
      title: 7,
      revision: "x",
      settings: { anything: true },
    });
    expect(read).toMatchObject({
      ok: true,
      value: { id: "s1", title: "Untitled session", revision: 0, leafId: null, settings: { anything: true } },
    });
  });

  it("refuses metadata from a newer version", () => {
    expect(readSessionMeta({ schema: 99, id: "s1" }).ok).toBe(false);
  });
});

describe("readCallBody", () => {
  const body = {
    schema: SCHEMA_VERSION,
    sessionId: "s",
    seq: 0,
    messages: { kept: "all", value: [], bytes: 2 },
    sources: [],
    payload: { kept: "all", value: { model: "m" }, bytes: 13 },
  };

  it("keeps the provider's endpoint beside the payload", () => {
    const endpoint = {
      url: "https://api.example/v1/chat/completions",
      headers: { Authorization: "Bearer $KEY" },
    };
    expect(readCallBody({ ...body, endpoint })).toEqual({ ok: true, value: { ...body, endpoint } });
    expect(readCallBody(body)).toEqual({ ok: true, value: body });
  });

  it("drops a damaged endpoint, never the call", () => {
    const read = readCallBody({ ...body, endpoint: { url: 5, headers: { a: 1 } } });
    expect(read).toEqual({ ok: true, value: body });
  });
});
