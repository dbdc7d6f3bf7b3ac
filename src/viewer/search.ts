import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { NewCall } from "../lib/storage/records.ts";

/**
 * The find box of an exported session: every text of the facts and of the recorded calls (what was sent,
 * the payload, the reply), searched without regard to case. Each hit links to its fact or call.
 */
export interface SearchHit {
  kind: "fact" | "call";
  /** As the inspector numbers them: fact 1 is the first fact, call 1 the first call. */
  number: number;
  label: string;
  /** The text around the first match. */
  excerpt: string;
  href: string;
}

export interface Searchable {
  kind: "fact" | "call";
  number: number;
  label: string;
  text: string;
  lower: string;
}

/** Fields that say what a value is rather than what it says: not searched (every message has a role). */
const STRUCTURE = new Set([
  "type",
  "role",
  "api",
  "provider",
  "model",
  "stopReason",
  "id",
  "toolCallId",
  "signature",
  "thinkingSignature",
  "textSignature",
  "kept",
]);

/** Every string a value holds, joined: the texts of a message or a call, whatever their shape. */
export function textsOf(value: unknown, into: string[] = [], depth = 0): string[] {
  if (depth > 64) return into;
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) textsOf(item, into, depth + 1);
  else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      if (!STRUCTURE.has(key)) textsOf(item, into, depth + 1);
  return into;
}

function searchable(kind: "fact" | "call", number: number, label: string, value: unknown): Searchable {
  const text = textsOf(value).join(" \u00b7 ");
  return { kind, number, label, text, lower: text.toLowerCase() };
}

/** What the find box searches: the facts on the session's path, then its calls. */
export function searchIndex(facts: readonly AgentMessage[], calls: readonly NewCall[]): Searchable[] {
  return [
    ...facts.map((fact, index) => searchable("fact", index + 1, `Fact ${index + 1} · ${fact.role}`, fact)),
    ...calls.map((call, index) =>
      searchable("call", index + 1, `Call ${index + 1} · ${call.summary.modelId}`, [
        call.body,
        call.summary.outcome,
      ]),
    ),
  ];
}

const EXCERPT_SIDE = 40;

/** The items whose text holds `query` (ignoring case), in order, at most `limit` of them. */
export function search(index: readonly Searchable[], query: string, limit = 50): SearchHit[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return [];
  const hits: SearchHit[] = [];
  for (const item of index) {
    const at = item.lower.indexOf(needle);
    if (at === -1) continue;
    const start = Math.max(0, at - EXCERPT_SIDE);
    const end = Math.min(item.text.length, at + needle.length + EXCERPT_SIDE);
    const excerpt = `${start > 0 ? "…" : ""}${item.text.slice(start, end).replace(/\s+/g, " ")}${end < item.text.length ? "…" : ""}`;
    hits.push({
      kind: item.kind,
      number: item.number,
      label: item.label,
      excerpt,
      href: `#${item.kind}-${item.number}`,
    });
    if (hits.length === limit) break;
  }
  return hits;
}

/** A deep link's target: `#fact-12` is the twelfth fact, `#call-3` the third call. */
export function linkTarget(hash: string): { kind: "fact" | "call"; index: number } | undefined {
  const match = /^#(fact|call)-(\d{1,9})$/.exec(hash);
  if (!match) return undefined;
  const number = Number(match[2]);
  return number >= 1 ? { kind: match[1] as "fact" | "call", index: number - 1 } : undefined;
}
