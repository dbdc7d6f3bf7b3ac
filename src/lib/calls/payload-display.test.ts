import { describe, expect, it } from "vitest";
import { payloadDisplay } from "./payload-display.ts";

describe("payloadDisplay", () => {
  it("shows a whole payload as indented JSON, with its size", () => {
    expect(payloadDisplay({ kept: "all", value: { model: "m", messages: [] }, bytes: 2_048 })).toEqual({
      text: '{\n  "model": "m",\n  "messages": []\n}',
      size: "2 kB",
      truncated: undefined,
    });
  });

  it("shows the kept start of a cut payload, marked with where it was cut", () => {
    const display = payloadDisplay({ kept: "truncated", text: '{"messages":[', bytes: 3_000_000 });
    expect(display.text).toBe('{"messages":[');
    expect(display.size).toBe("2.9 MB");
    expect(display.truncated).toBe("truncated at 13 bytes of 3,000,000");
  });

  it("says why there is none", () => {
    expect(
      payloadDisplay({
        kept: "none",
        bytes: 0,
        reason: "no request can be built: OPENAI_API_KEY is not set",
      }),
    ).toEqual({
      text: undefined,
      size: undefined,
      truncated: undefined,
      missing: "no request can be built: OPENAI_API_KEY is not set",
    });
  });
});
