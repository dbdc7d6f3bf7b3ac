import { describe, expect, it } from "vitest";
import { formatJsonBounded } from "./bounded-json.ts";

/** `{"a": [{"a": [ … ]}]}` nested `levels` deep, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe("formatJsonBounded", () => {
  it("writes ordinary values exactly as JSON.stringify does, pretty and on one line", () => {
    const values: unknown[] = [
      { role: "user", content: [{ type: "text", text: 'a "quoted"\nline' }], timestamp: 1 },
      [1, -0, 1e21, Number.NaN, Infinity, null, true, undefined, () => 1],
      { empty: {}, none: [], skipped: undefined, when: new Date(0), nested: { deeper: [[[]]] } },
      "text",
      42,
      null,
    ];
    for (const value of values) {
      expect(formatJsonBounded(value)).toBe(JSON.stringify(value, null, 2));
      expect(formatJsonBounded(value, { indent: 0 })).toBe(JSON.stringify(value));
    }
    expect(formatJsonBounded(undefined)).toBe("undefined");
  });

  it("shows a value nested 10,000 levels deep down to the limit, without throwing", () => {
    const deep = nested(10_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = formatJsonBounded(deep, { maxDepth: 50 });
    expect(text).toContain('"[nested deeper than 50 levels]"');
    expect(text.split("\n")).toHaveLength(50 * 2 + 1);
    expect(formatJsonBounded(JSON.parse("[".repeat(100_000) + "]".repeat(100_000)))).toContain(
      "[nested deeper than 200 levels]",
    );
  });

  it("marks cycles, BigInts and getters that throw instead of failing", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    cyclic.list = [cyclic];
    expect(formatJsonBounded(cyclic, { indent: 0 })).toBe(
      '{"name":"loop","self":"[circular]","list":["[circular]"]}',
    );
    const shared = { x: 1 };
    expect(formatJsonBounded({ a: shared, b: shared }, { indent: 0 })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const hostile = {
      big: 10n,
      get broken(): never {
        throw new Error("no access");
      },
      toJSONless: Object.create(null) as object,
    };
    expect(formatJsonBounded(hostile, { indent: 0 })).toBe(
      '{"big":10n,"broken":"[unreadable: no access]","toJSONless":{}}',
    );
    const badToJson = {
      toJSON: () => {
        throw new Error("nope");
      },
    };
    expect(formatJsonBounded({ v: badToJson }, { indent: 0 })).toBe('{"v":"[unreadable: nope]"}');
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(formatJsonBounded({ p: revoked.proxy }, { indent: 0 })).toMatch(/^\{"p":"\[unreadable: .*\]"\}$/);
  });

  it("cuts long output and says so, without walking the rest of a huge value", () => {
    let reads = 0;
    const huge = Array.from({ length: 200_000 }, (_, index) => ({
      index,
      get text() {
        reads++;
        return "x".repeat(20);
      },
    }));
    const text = formatJsonBounded(huge, { maxChars: 10_000 });
    expect(reads).toBeLessThan(300);
    expect(text.length).toBeLessThan(10_100);
    expect(text.endsWith("… cut here: the value is longer than 10,000 characters")).toBe(true);
  });
});
