import type { Attachment } from "svelte/attachments";
import { matchRanges, type SearchQuery } from "./text-search.ts";

/** The name of the CSS highlight that marks a search's matches: styled as `::highlight(search-match)`. */
export const MATCH_HIGHLIGHT = "search-match";

let matches: Highlight | undefined;

/** The page's one highlight of matches, registered on first use; undefined where CSS highlights are missing. */
function highlight(): Highlight | undefined {
  if (matches) return matches;
  if (typeof CSS === "undefined" || !("highlights" in CSS) || typeof Highlight === "undefined")
    return undefined;
  matches = new Highlight();
  CSS.highlights.set(MATCH_HIGHLIGHT, matches);
  return matches;
}

/**
 * An element's text, with the places a search found marked by the CSS Custom Highlight API rather than by
 * `<mark>` elements: the text stays one text node, so the row's accessible name and the text a speech
 * user reads on screen stay the same string (split by marks, checkers read "Run save_note" as
 * "Runsave_note"), and nothing is added to the DOM of a list that re-renders as it scrolls. Where the API
 * is missing (older browsers) the text shows unmarked.
 */
export function textWithMatches(text: string, query: SearchQuery | undefined): Attachment<HTMLElement> {
  return (element) => {
    // The same text again (a row rendered anew with what it already shows, as the streaming reply's row is at
    // every showing once its line is full) leaves the node as it is: replacing it would lay out and paint
    // the row again for nothing.
    if (element.textContent !== text) element.textContent = text;
    const registry = query ? highlight() : undefined;
    const node = element.firstChild;
    if (!registry || !query || !(node instanceof Text)) return;
    const ranges = matchRanges(query, text).map(({ start, end }) => {
      const range = new Range();
      range.setStart(node, start);
      range.setEnd(node, end);
      return range;
    });
    ranges.forEach((range) => registry.add(range));
    return () => ranges.forEach((range) => registry.delete(range));
  };
}
