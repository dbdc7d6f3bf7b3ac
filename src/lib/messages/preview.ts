import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { kindOf } from "./kinds/index.ts";
import { PREVIEW_LENGTH } from "./kinds/text.ts";

/** Badge text for a fact: its role, or for custom messages (and others that name one) their custom type too. */
export function roleBadge(message: AgentMessage): string {
  return kindOf(message).badge(message);
}

const cache = new WeakMap<object, string>();

/** One line that tells a fact apart from its neighbours (its kind says what); cached per (immutable) message object. */
export function preview(message: AgentMessage): string {
  const hit = cache.get(message);
  if (hit !== undefined) return hit;
  const line = oneLine(kindOf(message).preview(message));
  const value = line.length > PREVIEW_LENGTH ? `${line.slice(0, PREVIEW_LENGTH - 1)}…` : line;
  cache.set(message, value);
  return value;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The accessible name of a fact row: its visible text (number, role, fate, preview) made a sentence.
 * Speech input users say what they see, so every visible word is in the name, in the same order; the
 * preview comes last because a narrow panel may squeeze it out of sight.
 */
export function factRowLabel(index: number, role: string, fate: string, previewText: string): string {
  return `Fact ${index + 1}: ${role}, ${fate}. ${previewText}`;
}

/** The accessible name of a model view row: number, role, source fact, preview. */
export function modelRowLabel(index: number, role: string, sourceFact: number, previewText: string): string {
  return `Model message ${index + 1}: ${role}, from fact ${sourceFact}. ${previewText}`;
}
