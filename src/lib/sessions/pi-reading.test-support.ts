import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { createSystemFact } from "../agent/new-session.ts";
import { convertToLlm } from "../messages/convert.ts";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import { piMessages, piSession } from "../model-view/pi-sessions.test-support.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { buildTree } from "../model-view/session-tree.ts";
import { exportSession, type SessionSnapshot } from "./export-format.ts";
import { parseSessionFile } from "./import-file.ts";
import { planImport } from "./import-session.ts";
import type { ParsedImport } from "./parsed-import.ts";
import { fileText, PROGRAM_ENTRY_TYPES, type FileLine } from "./pi-session.arbitraries.test-support.ts";

/**
 * The playground's reading of a file, checked against pi coding agent 1.6.0's own reading of the same file
 * (its SessionManager opening it from disk): at every leaf, the context pi's `buildSessionContext` builds
 * (strictly equal, message for message) and what pi's `convertToLlm` makes of it, the model and the
 * thinking level; the session's name and every label. Then the playground's export of it, opened by pi
 * again: pi reads the same at every leaf, opens where the file did, and, with the session's position moved
 * to any entry, opens there with names and labels unchanged. An unchanged file comes back byte for byte.
 */

const dir = mkdtempSync(join(tmpdir(), "pi-playground-reading-"));
let written = 0;

/** A file's text opened by pi's SessionManager, from disk as pi opens its files. */
export function openWithPi(text: string) {
  const path = join(dir, `${written++}.jsonl`);
  writeFileSync(path, text);
  return piSession.SessionManager.open(path);
}

type Json = Record<string, unknown>;

const piContext = (entries: unknown[], leafId?: string | null) =>
  piSession.buildSessionContext(entries, leafId);

export interface ReadingCheck {
  /** Whether the file was changed from what pi wrote (an unchanged file must export byte for byte). */
  changed: boolean;
  /** Whether a change made a value the page cannot show (the entry is kept, named, never sent). */
  refusing: boolean;
  /** Which entry to move the session's position to before exporting again (modulo the entries). */
  leafPick?: number;
}

/** Check the playground's reading of `lines` against pi's; returns the parsed import for more checks. */
export function expectReadAsPi(
  lines: readonly FileLine[],
  { changed, refusing, leafPick = 0 }: ReadingCheck,
): ParsedImport {
  const text = fileText(lines);
  const pi = openWithPi(text);
  const piEntries = pi.getEntries() as Json[];
  const parsed = parseSessionFile(text, "reading.jsonl");

  // Entries the playground keeps without understanding although pi knows their type: refused values,
  // each named on its line. Only a refusing change makes any.
  const refused = parsed.entries.filter(
    (entry) =>
      entry.type === "unknown" && (PROGRAM_ENTRY_TYPES as readonly unknown[]).includes(entry.original.type),
  );
  if (!refusing) expect(refused.map((entry) => entry.id)).toEqual([]);
  for (const entry of refused)
    expect(parsed.problems.some((problem) => problem.entryId === entry.id)).toBe(true);
  const refusedIds = new Set(refused.map((entry) => entry.id));
  // Known by their messages (an entry pi reads without an id gets one here, so ids cannot tell).
  const refusedMessages = new Set(
    refused.map((entry) => (entry.type === "unknown" ? JSON.stringify(entry.original.message) : "")),
  );

  const ids = [
    ...new Set(
      piEntries.map((entry) => entry.id).filter((id): id is string => typeof id === "string" && id !== ""),
    ),
  ];

  const compare = (leafId: string | null | undefined, path: SessionEntry[]) => {
    const expected = piContext(piEntries, leafId);
    const projection = projectSession(path);
    // pi's context without what refused entries contribute (kept by the playground, never sent).
    const sent = piSession
      .buildSessionProjection(piEntries, leafId)
      .entries.flatMap((item) =>
        item.sourceEntry.type === "message" && refusedMessages.has(JSON.stringify(item.sourceEntry.message))
          ? []
          : item.messages,
      );
    expect(projection.context).toStrictEqual(sent);
    expect(convertToLlm(projection.context)).toStrictEqual(piMessages.convertToLlm(sent));
    if (!path.some((entry) => refusedIds.has(entry.id))) {
      expect(projection.model).toStrictEqual(expected.model);
      expect(projection.thinkingLevel).toBe(expected.thinkingLevel);
    }
  };

  // Every leaf, and the leaf pi opens the file at.
  for (const id of ids) compare(id, pathTo(parsed.entries, id));
  compare(pi.getLeafId(), pathTo(parsed.entries, parsed.leafId));
  expect(parsed.titleIsCustom ? parsed.title : undefined).toBe(pi.getSessionName());
  const labels = buildTree(parsed.entries).labels;
  for (const id of ids) expect(labels.get(id)).toBe(pi.getLabel(id));

  // Exported to pi's format: an unchanged file comes back byte for byte; any file reads the same in pi.
  const plan = planImport(parsed, { hasModel: () => true, systemFact: () => createSystemFact() });
  const snapshot: SessionSnapshot = {
    id: "reading-session",
    title: plan.init.title ?? "",
    titleIsCustom: plan.init.titleIsCustom ?? false,
    createdAt: 0,
    settings: plan.init.settings ?? parsed.settings,
    entries: plan.init.entries ?? [],
    leafId: plan.init.leafId ?? null,
    piHeader: parsed.piHeader,
    calls: [],
  };
  const sameInPi = (exported: string, leafId: string | null | undefined) => {
    const again = openWithPi(exported);
    const againEntries = again.getEntries();
    for (const id of ids) expect(piContext(againEntries, id)).toStrictEqual(piContext(piEntries, id));
    expect(again.buildSessionContext()).toStrictEqual(piContext(piEntries, leafId));
    expect(again.getSessionName()).toBe(pi.getSessionName());
    for (const id of ids) expect(again.getLabel(id)).toBe(pi.getLabel(id));
  };
  const exported = exportSession(snapshot, "pi").text;
  if (!changed) expect(exported).toBe(text);
  sameInPi(exported, pi.getLeafId());

  // With the position moved to any entry: pi opens the export there, names and labels as before.
  const leaf = ids[leafPick % Math.max(1, ids.length)];
  if (leaf !== undefined) sameInPi(exportSession({ ...snapshot, leafId: leaf }, "pi").text, leaf);
  return parsed;
}
