import { execFileSync } from "node:child_process";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";
import { commentText, pythonString, pythonValue, shellQuote, tsString, tsValue } from "./code-literals.ts";

/** Strings that try to end their quotes, lines or comments, or that parsers read differently. */
const HOSTILE = [
  'x"); globalThis.__pwned = 1; ("',
  "x'); __import__('os').system('touch pwned') #",
  "line\nbreak\r\nand\rreturn",
  "separators \u2028 and \u2029",
  "*/ /* // # --",
  "back\\slash \\u0041 \\x41 \\N{DASH}",
  "`${template}` $(command) $HOME",
  "astral 😀 and a lone \ud800 surrogate",
  "nul \u0000 bell \u0007 delete \u007f",
  "\"\"\"triple\"\"\" and '''triple'''",
];

/** Text UTF-8 can write: no lone surrogate. */
const wellFormed = (value: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

/** The value a TypeScript expression evaluates to, read by the TypeScript compiler and run. */
function evaluateTs(expression: string): unknown {
  const js = ts.transpileModule(`export default ${expression};`, {
    compilerOptions: { module: ts.ModuleKind.CommonJS },
  }).outputText;
  const module = { exports: {} as { default?: unknown } };
  new Function("module", "exports", js)(module, module.exports);
  return module.exports.default;
}

/** The value Python reads from a literal, written back as JSON (with surrogates kept as escapes). */
function evaluatePython(literals: string[]): unknown[] {
  const program = `import json\nvalues = [\n${literals.map((literal) => `    ${literal},`).join("\n")}\n]\nprint(json.dumps(values))\n`;
  return JSON.parse(execFileSync("python3", ["-c", program], { encoding: "utf8" })) as unknown[];
}

// Python, bash and the TypeScript compiler start as processes: a busy machine can take seconds.
vi.setConfig({ testTimeout: 60_000 });

describe("code literals", () => {
  it("TypeScript strings read back as the very value, and stay on one line", () => {
    for (const value of HOSTILE) {
      const literal = tsString(value);
      expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(evaluateTs(literal)).toBe(value);
    }
  });

  it("TypeScript values read back as the same JSON, a __proto__ key as an own property", () => {
    const value = { __proto__: null, nested: [{ ["__proto__"]: { polluted: true } }], texts: HOSTILE };
    const data = JSON.parse(JSON.stringify(value)) as unknown;
    const read = evaluateTs(tsValue(data)) as { nested: object[] };
    expect(JSON.stringify(read)).toBe(JSON.stringify(data));
    expect(Object.getPrototypeOf(read.nested[0])).toBe(Object.prototype);
    expect(Object.keys(read.nested[0] as object)).toEqual(["__proto__"]);
  });

  it("Python strings and values read back as the very value", () => {
    const texts = HOSTILE.filter(wellFormed);
    expect(evaluatePython(texts.map(pythonString))).toEqual(texts);
    const data = { text: texts, numbers: [0, -1.5, 1e21, 12345678901234], flags: [true, false, null] };
    expect(evaluatePython([pythonValue(data)])).toEqual([data]);
  });

  it("shell words are taken literally", () => {
    // A shell word is bytes: no NUL, and text that UTF-8 can write.
    const words = HOSTILE.filter((value) => !value.includes("\u0000") && wellFormed(value));
    const script = words.map((value) => `printf '%s\\0' ${shellQuote(value)}`).join("\n");
    const printed = execFileSync("bash", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
    expect(printed).toEqual(words);
  });

  it("comment text holds no line end and nothing outside printable ASCII", () => {
    for (const value of HOSTILE) expect(commentText(value)).toMatch(/^[\x20-\x7e]*$/);
    expect(commentText("a\nb\u2028c😀")).toBe("a\\u000ab\\u2028c\\u{1f600}");
  });
});
