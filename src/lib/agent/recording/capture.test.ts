import { describe, expect, it } from "vitest";
import { capture, truncationNote } from "./capture.ts";

describe("capture", () => {
  it("keeps a part whole when it fits, and says how big it was", () => {
    expect(capture({ a: 1 }, 100, 1_000)).toEqual({ kept: "all", value: { a: 1 }, bytes: 7 });
  });

  it("cuts a part at the limit and says where", () => {
    const part = capture("x".repeat(50), 20, 1_000);
    expect(part).toEqual({ kept: "truncated", text: `"${"x".repeat(19)}`, bytes: 52 });
    expect(truncationNote(part)).toBe("truncated at 20 bytes of 52");
  });

  it("cuts at what is left of the session's budget, and keeps nothing once it is used up", () => {
    expect(capture("x".repeat(50), 1_000, 10)).toMatchObject({ kept: "truncated", bytes: 52 });
    const none = capture("x", 1_000, 0);
    expect(none).toMatchObject({ kept: "none", bytes: 3 });
    expect(truncationNote(none)).toMatch(/^not kept: this session's budget of 64 MB/);
  });
});
