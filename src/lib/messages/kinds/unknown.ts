import { formatJsonBounded } from "../../ui/bounded-json.ts";
import { formatJson } from "../../ui/format.ts";
import { timestamp } from "./fields.ts";
import type { Fact, MessageKind } from "./kind.ts";
import { PREVIEW_LENGTH } from "./text.ts";

/**
 * What a fact of a role nobody here defined is called: its role, and the custom type it names if it has
 * one (a live pi's extension, a later pi or a file may bring such facts; they are shown, never dropped).
 */
export function unknownFactLabel(message: object): string {
  const fields = message as { role?: unknown; customType?: unknown };
  const role = typeof fields.role === "string" && fields.role !== "" ? fields.role : "(no role)";
  return typeof fields.customType === "string" ? `${role}:${fields.customType}` : role;
}

/**
 * The kind of every fact whose role no kind is registered for: kept, shown as the JSON it is, listed and
 * counted among the facts, and never sent (pi drops roles it does not know).
 */
export const unknownKind: MessageKind<Fact> = {
  role: "(unknown)",
  label: "Unknown role",
  convert: () => ({ fate: "unknown" }),
  policy: null,
  badge: unknownFactLabel,
  preview: (message) => formatJsonBounded(message, { indent: 0, maxChars: PREVIEW_LENGTH * 2 }),
  copyText: (message) => formatJson(message),
  // Never sent, so it takes no room in any context: the inspector, the anatomy and the header agree on 0.
  tokens: () => 0,
  title: () => "",
  anatomy: null,
  // Never checked field by field: a role nobody registered is kept as a file or pi brings it, or refused.
  fields: { timestamp },
  editable: null,
  piEntry: null,
  view: { load: () => import("./views/UnknownFactView.svelte") },
  // Made only as JSON (the injection dialog's JSON tab), since nobody knows its fields.
  form: null,
};
