import { diffLines, diffWordsWithSpace } from "diff";
import { positiveInt } from "../../shared/positive-int.ts";
import { formatJson } from "../ui/format.ts";
import { replyText } from "../messages/reply-text.ts";

export { replyText };

/**
 * One run of a diff: text both sides share, text only the original (removed) or the variant (added) has,
 * or, in a line diff, a long stretch both share that is left out (`skipped`, its text saying how much).
 */
export interface DiffPart {
  kind: "same" | "added" | "removed" | "skipped";
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

/**
 * Lines of shared text kept on each side of a change in a line diff; longer shared stretches are left out,
 * as a code review's diff does, so the changes of a long payload are found without scrolling past it.
 */
export const DIFF_CONTEXT_LINES = 3;

/** The line diff of two provider payloads, each formatted as indented JSON, long shared stretches left out. */
export function payloadDiff(before: unknown, after: unknown): TextDiff {
  const left = formatJson(before);
  const right = formatJson(after);
  const diff = limited(left, right, () => diffLines(left, right, LIMITS));
  return diff.ok && diff.changed ? { ...diff, parts: collapseShared(diff.parts, DIFF_CONTEXT_LINES) } : diff;
}

/** Shared runs of a line diff cut to `context` lines beside each change, the rest named as skipped. */
export function collapseShared(parts: readonly DiffPart[], context: number): DiffPart[] {
  return parts.flatMap((part, index): DiffPart[] => {
    if (part.kind !== "same") return [part];
    const endsLine = part.text.endsWith("\n");
    const lines = (endsLine ? part.text.slice(0, -1) : part.text).split("\n");
    // Context after the change before this run, and before the change after it; none at either end.
    const head = index === 0 ? 0 : context;
    const tail = index === parts.length - 1 ? 0 : context;
    const hidden = lines.length - head - tail;
    if (hidden <= 1) return [part];
    const kept: DiffPart[] = [];
    if (head > 0) kept.push({ kind: "same", text: `${lines.slice(0, head).join("\n")}\n` });
    kept.push({ kind: "skipped", text: `⋯ ${hidden.toLocaleString("en")} unchanged lines ⋯\n` });
    if (tail > 0)
      kept.push({ kind: "same", text: `${lines.slice(-tail).join("\n")}${endsLine ? "\n" : ""}` });
    return kept;
  });
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
