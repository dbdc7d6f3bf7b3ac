import { describe, expect, it } from "vitest";
import { buildFromForm } from "./form-message.ts";
import { initialValues } from "./forms.ts";

describe("injection forms", () => {
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

describe("values nested too deeply to store", () => {
  const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;

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
