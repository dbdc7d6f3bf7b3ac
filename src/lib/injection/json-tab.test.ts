import { describe, expect, it } from "vitest";
import { buildFromForm } from "./form-message.ts";
import { initialValues, INJECT_KINDS, type FormValues, type InjectKind } from "./forms.ts";
import { buildFromJson, formFromJson, jsonFromForm } from "./json-tab.ts";

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
