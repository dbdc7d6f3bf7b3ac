import { describe, expect, it } from "vitest";
import { bashFromComposer, parseBashLine } from "./composer-input.ts";

describe("parseBashLine", () => {
  it("reads ! and !! like pi's coding agent", () => {
    expect(parseBashLine("!ls -la")).toEqual({ command: "ls -la", excludeFromContext: false });
    expect(parseBashLine("!! cat secrets.env")).toEqual({
      command: "cat secrets.env",
      excludeFromContext: true,
    });
  });

  it("ignores text that is not a command", () => {
    expect(parseBashLine("hello!")).toBeUndefined();
    expect(parseBashLine("!")).toBeUndefined();
    expect(parseBashLine("!!   ")).toBeUndefined();
  });
});

describe("bashFromComposer", () => {
  it("builds the fact with the output and exit code the person typed", () => {
    const built = bashFromComposer(
      { command: "npm test", excludeFromContext: true },
      { output: "1 failing", exitCode: "1" },
    );
    expect(built).toMatchObject({
      message: {
        role: "bashExecution",
        command: "npm test",
        output: "1 failing",
        exitCode: 1,
        excludeFromContext: true,
      },
    });
  });

  it("leaves an empty exit code unknown and refuses one that is not a whole number", () => {
    expect(
      bashFromComposer({ command: "x", excludeFromContext: false }, { output: "", exitCode: "" }),
    ).toMatchObject({ message: { exitCode: undefined } });
    expect(
      bashFromComposer({ command: "x", excludeFromContext: false }, { output: "", exitCode: "abc" }),
    ).toEqual({
      error: 'Exit code must be a whole number or empty, not "abc".',
    });
  });
});
