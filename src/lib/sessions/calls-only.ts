import type { SessionMeta } from "../storage/records.ts";
import { countOf } from "../../shared/count-of.ts";

/**
 * A session of calls with no facts: what an imported LHAR file or a pasted request body becomes. Its
 * calls and their anatomy are there, but nothing the session itself holds (no chat, no facts, no model view
 * of its own), and the page says so instead of looking empty.
 */
export function isCallsOnly(meta: SessionMeta, factCount: number): boolean {
  return factCount === 0 && (meta.nextCallSeq ?? 0) > 0;
}

/** "This session has 3 model calls and no facts. It was imported from run.lhar, a record of …" */
export function callsOnlyText(meta: SessionMeta): string {
  const calls = countOf(meta.nextCallSeq ?? 0, "model call");
  const from = meta.importedFrom
    ? `It was imported from ${meta.importedFrom.fileName}, a`
    : "It was imported from a";
  return `This session has ${calls} and no facts. ${from} record of what was sent to the model rather than of the session that sent it: there is no conversation to show here, and the facts and the model view stay empty.`;
}
