import { describe, expect, it } from "vitest";
import { MediaMatch, type MatchMedia } from "./media-match.svelte.ts";

function fakeMedia(initially: boolean) {
  const listeners: ((event: MediaQueryListEvent) => void)[] = [];
  const queries: string[] = [];
  const matchMedia: MatchMedia = (query) => {
    queries.push(query);
    return {
      matches: initially,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
        void listeners.push(listener),
    } as Pick<MediaQueryList, "matches" | "addEventListener">;
  };
  const change = (matches: boolean) => {
    for (const listener of listeners) listener({ matches } as MediaQueryListEvent);
  };
  return { matchMedia, change, queries };
}

describe("MediaMatch", () => {
  it("starts from the query's current answer and follows its changes", () => {
    const media = fakeMedia(true);
    const narrow = new MediaMatch("(max-width: 900px)", false, media.matchMedia);
    expect(media.queries).toEqual(["(max-width: 900px)"]);
    expect(narrow.current).toBe(true);
    media.change(false);
    expect(narrow.current).toBe(false);
    media.change(true);
    expect(narrow.current).toBe(true);
  });

  it("answers the fallback where the page has no matchMedia", () => {
    expect(new MediaMatch("(max-width: 900px)", true, undefined).current).toBe(true);
    expect(new MediaMatch("(max-width: 900px)", false, undefined).current).toBe(false);
  });
});
