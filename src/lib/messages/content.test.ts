import type { ImageContent, TextContent } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { contentParts, otherBlockLabel, partText } from "./content.ts";

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

describe("partText", () => {
  it("is a text part's text, an image by its type, and any other block by its type", () => {
    expect(partText({ type: "text", text: "hi" })).toBe("hi");
    expect(partText({ type: "image", mimeType: "image/png", data: "AAAA" })).toBe("[image image/png]");
    expect(partText({ type: "video" } as unknown as TextContent)).toBe("[video block]");
    expect(otherBlockLabel({ type: "" })).toBe("[block of no type]");
    expect(otherBlockLabel(null)).toBe("[block of no type]");
  });
});
