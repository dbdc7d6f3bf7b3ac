import { diffLines, diffWordsWithSpace } from "diff";
import { positiveInt } from "../../shared/positive-int.ts";
import { formatJson } from "../ui/format.ts";
import { replyText } from "../messages/reply-text.ts";

export { replyText };

/** One run of a diff: text both sides share, or text only the original (removed) or the variant (added) has. */
export interface DiffPart {
  kind: "same" | "added" | "removed";
  text: string;
}

export type TextDiff = { ok: true; parts: DiffPart[]; changed: boolean } | { ok: false; reason: string };

/**
 * Past this many edits a diff is not computed (the `diff` package's `maxEditLength`): two unrelated long
 * outputs would take seconds of the page's main thread, and a diff of them says nothing anyway.
 */
export const DIFF_MAX_EDITS = 2_000;
/** And a diff that takes longer than this (ms) is given up, whatever its size: the page stays responsive. */
export const DIFF_TIMEOUT_MS = positiveInt(import.meta.env?.VITE_DIFF_TIMEOUT_MS) ?? 150;
/** Texts longer than this (characters) are not diffed word by word. */
export const DIFF_MAX_CHARS = positiveInt(import.meta.env?.VITE_DIFF_MAX_CHARS) ?? 200_000;

/** The word-level diff of two outputs (whitespace kept as it is). */
export function wordDiff(before: string, after: string): TextDiff {
  return limited(before, after, () => diffWordsWithSpace(before, after, LIMITS));
}

/** The line diff of two provider payloads, each formatted as indented JSON. */
export function payloadDiff(before: unknown, after: unknown): TextDiff {
  const left = formatJson(before);
  const right = formatJson(after);
  return limited(left, right, () => diffLines(left, right, LIMITS));
}

const LIMITS = { maxEditLength: DIFF_MAX_EDITS, timeout: DIFF_TIMEOUT_MS };

function limited(
  before: string,
  after: string,
  run: () => { added: boolean; removed: boolean; value: string }[] | undefined,
): TextDiff {
  if (before.length > DIFF_MAX_CHARS || after.length > DIFF_MAX_CHARS)
    return {
      ok: false,
      reason: `Too long to compare here (${Math.max(before.length, after.length).toLocaleString("en")} characters; at most ${DIFF_MAX_CHARS.toLocaleString("en")}).`,
    };
  const changes = run();
  if (!changes)
    return {
      ok: false,
      reason: `The two differ too much to compare here (more than ${DIFF_MAX_EDITS.toLocaleString("en")} changes, or more than ${DIFF_TIMEOUT_MS} ms of work).`,
    };
  const parts = changes.map((change): DiffPart => ({
    kind: change.added ? "added" : change.removed ? "removed" : "same",
    text: change.value,
  }));
  return { ok: true, parts, changed: parts.some((part) => part.kind !== "same") };
}
