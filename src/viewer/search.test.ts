import { describe, expect, it } from "vitest";
import { createUserMessage } from "../lib/messages/factories.ts";
import { call } from "../lib/sessions/session-file.test-support.ts";
import { linkTarget, search, searchIndex } from "./search.ts";

describe("the find box of an exported session", () => {
  const index = searchIndex(
    [createUserMessage("Plan a trip to Lisbon"), createUserMessage("and then PORTO by train")],
    [call],
  );

  it("finds facts by their text whatever the case, each hit linking to its fact", () => {
    const hits = search(index, "porto");
    expect(hits).toEqual([
      {
        kind: "fact",
        number: 2,
        label: "Fact 2 · user",
        excerpt: expect.stringContaining("PORTO"),
        href: "#fact-2",
      },
    ]);
    expect(hits[0]?.excerpt).toBe("and then PORTO by train");
    // What a fact is (its role, its type) is not what it says.
    expect(search(index, "user")).toEqual([]);
    expect(search(index, "   ")).toEqual([]);
    expect(search(index, "nowhere to be found")).toEqual([]);
  });

  it("finds calls by what they sent", () => {
    // The call's messages hold "hello", which no fact does.
    expect(search(index, "HELLO")).toEqual([
      expect.objectContaining({ href: "#call-1", label: "Call 1 · mirror" }),
    ]);
  });

  it("reads deep links as the inspector numbers facts and calls", () => {
    expect(linkTarget("#fact-12")).toEqual({ kind: "fact", index: 11 });
    expect(linkTarget("#call-3")).toEqual({ kind: "call", index: 2 });
    expect(linkTarget("#fact-0")).toBeUndefined();
    expect(linkTarget("#facts")).toBeUndefined();
  });
});
