import { describe, expect, it } from "vitest";
import { textWithMatches } from "./match-highlight.ts";
import { compileQuery } from "./text-search.ts";

/**
 * A list row's text is set by an attachment that runs again whenever the row renders again. The inspector's
 * row of the reply being streamed renders at every showing, and once its line is full it shows the same
 * text each time: the text node must then stay as it is, or the browser lays out and paints the row anew.
 */
describe("textWithMatches", () => {
  it("keeps the text node when the row is rendered again with the same text", () => {
    const element = document.createElement("span");
    document.body.append(element);
    const cleanup = textWithMatches("(streaming…) a reply", undefined)(element);
    const node = element.firstChild;
    if (typeof cleanup === "function") cleanup();
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(element, { childList: true, characterData: true, subtree: true });
    textWithMatches("(streaming…) a reply", undefined)(element);
    changes.push(...observer.takeRecords());
    observer.disconnect();
    expect(element.firstChild).toBe(node);
    expect(changes).toEqual([]);
    element.remove();
  });

  it("shows a new text, and marks a search's matches in the text it keeps", () => {
    const element = document.createElement("span");
    document.body.append(element);
    textWithMatches("first line", undefined)(element);
    textWithMatches("second line", undefined)(element);
    expect(element.textContent).toBe("second line");
    const kept = element.firstChild;
    const query = compileQuery("line");
    const cleanup = textWithMatches("second line", query)(element);
    expect(element.firstChild).toBe(kept);
    const marked = CSS.highlights.get("search-match");
    expect([...(marked ?? [])].map((range) => range.toString())).toEqual(["line"]);
    if (typeof cleanup === "function") cleanup();
    expect(marked?.size).toBe(0);
    element.remove();
  });
});
