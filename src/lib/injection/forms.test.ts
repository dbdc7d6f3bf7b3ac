import { describe, expect, it } from "vitest";
import {
  buildFromForm,
  buildFromJson,
  formFromJson,
  FORMS,
  initialValues,
  INJECT_KINDS,
  jsonFromForm,
  type FormValues,
  type InjectKind,
} from "./forms.ts";

describe("injection forms", () => {
  it("cover every custom type and plain user and assistant messages", () => {
    expect(INJECT_KINDS).toEqual([
      "notification",
      "approval_request",
      "progress",
      "bashExecution",
      "custom",
      "branchSummary",
      "compactionSummary",
      "user",
      "assistant",
    ]);
    expect(FORMS.bashExecution.map((field) => field.name)).toEqual([
      "command",
      "output",
      "exitCode",
      "cancelled",
      "truncated",
      "fullOutputPath",
      "excludeFromContext",
    ]);
  });

  it("build a valid message from filled-in values", () => {
    const result = buildFromForm(
      "bashExecution",
      {
        ...initialValues("bashExecution"),
        command: "ls",
        output: "a b",
        exitCode: "2",
        excludeFromContext: true,
      },
      5,
    );
    expect(result).toEqual({
      ok: true,
      message: {
        role: "bashExecution",
        command: "ls",
        output: "a b",
        exitCode: 2,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
        timestamp: 5,
      },
    });
  });

  it("say what is wrong next to the field", () => {
    const bash = buildFromForm("bashExecution", {
      ...initialValues("bashExecution"),
      command: "ls",
      exitCode: "abc",
    });
    expect(bash).toEqual({
      ok: false,
      errors: [{ field: "exitCode", message: 'Exit code must be a whole number, not "abc".' }],
    });
    const custom = buildFromForm("custom", {
      ...initialValues("custom"),
      customType: "k",
      content: "c",
      details: "{nope",
    });
    expect(custom.ok).toBe(false);
    if (!custom.ok)
      expect(custom.errors[0]).toMatchObject({
        field: "details",
        message: expect.stringMatching(/^Details is not valid JSON: /),
      });
    expect(buildFromForm("notification", initialValues("notification"))).toEqual({
      ok: false,
      errors: [{ field: "text", message: "Text is required." }],
    });
    const progress = buildFromForm("progress", { text: "p", fraction: "1.5" });
    expect(progress).toEqual({
      ok: false,
      errors: [{ field: "fraction", message: "fraction must be at most 1." }],
    });
  });

  it("keep custom details as parsed JSON and leave empty optionals out", () => {
    const result = buildFromForm(
      "custom",
      { customType: "k", content: "c", display: false, details: '{"a":[1,2]}' },
      1,
    );
    expect(result).toEqual({
      ok: true,
      message: {
        role: "custom",
        customType: "k",
        content: "c",
        display: false,
        details: { a: [1, 2] },
        timestamp: 1,
      },
    });
    const approval = buildFromForm(
      "approval_request",
      { action: "Deploy", subject: "  ", status: "pending" },
      1,
    );
    expect(approval).toEqual({
      ok: true,
      message: { role: "approval_request", action: "Deploy", status: "pending", timestamp: 1 },
    });
  });
});

describe("the JSON tab", () => {
  it("accepts a whole message, adding a timestamp when there is none", () => {
    const result = buildFromJson('{"role":"notification","text":"hi","level":"info"}');
    expect(result).toMatchObject({
      ok: true,
      message: { role: "notification", text: "hi", level: "info", timestamp: expect.any(Number) },
    });
  });

  it("names malformed JSON, unknown roles and wrong types", () => {
    expect(buildFromJson("{")).toMatchObject({
      ok: false,
      errors: [{ field: "", message: expect.stringMatching(/^Not valid JSON: /) }],
    });
    expect(buildFromJson('{"role":"oops"}')).toMatchObject({ ok: false, errors: [{ field: "role" }] });
    expect(
      buildFromJson(
        '{"role":"bashExecution","command":"x","output":"","exitCode":"abc","cancelled":false,"truncated":false}',
      ),
    ).toMatchObject({
      ok: false,
      errors: [{ field: "exitCode", message: "exitCode must be a number or left empty." }],
    });
  });
});

describe("values nested too deeply to store", () => {
  const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;

  it("are refused in pasted JSON with a sentence saying why", () => {
    expect(buildFromJson(`{"role":"notification","text":"hi","level":"info","x":${deep}}`)).toEqual({
      ok: false,
      errors: [
        {
          field: "",
          message:
            "The message nests more than 200 levels deep; the playground accepts values up to 200 levels.",
        },
      ],
    });
  });

  it("are refused in a custom message's details, next to the field", () => {
    const values = { ...initialValues("custom"), customType: "t", content: "c", details: deep };
    expect(buildFromForm("custom", values)).toMatchObject({
      ok: false,
      errors: [
        { field: "details", message: expect.stringMatching(/^Details nest more than 199 levels deep/) },
      ],
    });
  });
});

describe("the form and the JSON of one message", () => {
  const filled: Record<InjectKind, FormValues> = {
    notification: { text: "Build done", level: "warning" },
    approval_request: { action: "Deploy", subject: "v2", status: "approved" },
    progress: { text: "Indexing", fraction: "0.25" },
    bashExecution: {
      command: "npm test",
      output: "1 failing",
      exitCode: "1",
      cancelled: false,
      truncated: true,
      fullOutputPath: "/tmp/out.txt",
      excludeFromContext: true,
    },
    custom: { customType: "ci", content: "CI failed", display: false, details: '{\n  "runs": 3\n}' },
    branchSummary: { summary: "Tried B", fromId: "abc123" },
    compactionSummary: { summary: "Earlier turns", tokensBefore: "1200" },
    user: { text: "hello" },
    assistant: { text: "hi there" },
  };

  it.each(INJECT_KINDS)("round-trip for %s: the form shows exactly what its JSON says", (kind) => {
    const values = { ...initialValues(kind), ...filled[kind] };
    const read = formFromJson(jsonFromForm(kind, values));
    expect(read).toEqual({ ok: true, kind, values, kept: {} });
    // And what the JSON tab would inject is what the form would.
    const fromJson = buildFromJson(jsonFromForm(kind, values));
    const fromForm = buildFromForm(kind, values, 7);
    expect(fromJson.ok && fromForm.ok).toBe(true);
    if (fromJson.ok && fromForm.ok) expect({ ...fromJson.message, timestamp: 7 }).toEqual(fromForm.message);
  });

  it("names every field it would change: a model's reply is not a hand-written one", () => {
    const reply = {
      role: "assistant",
      content: [{ type: "text", text: "x" }],
      api: "openai-responses",
      provider: "openai",
      model: "gpt-5",
      stopReason: "stop",
    };
    expect(formFromJson(JSON.stringify(reply))).toEqual({
      ok: false,
      kind: "assistant",
      reason: 'it would change "api", "provider", "model"',
    });
  });
});
