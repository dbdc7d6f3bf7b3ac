import type { ImageContent, TextContent } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { contentParts } from "./content.ts";

describe("contentParts", () => {
  it("turns a string into one text part", () => {
    expect(contentParts("hello")).toEqual([{ type: "text", text: "hello" }]);
  });

  it("returns a list of parts as the same list", () => {
    const parts: (TextContent | ImageContent)[] = [
      { type: "text", text: "see" },
      { type: "image", mimeType: "image/png", data: "AAAA" },
    ];
    expect(contentParts(parts)).toBe(parts);
  });
});
