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
  const value = previewLine(kindOf(message).preview(message));
  cache.set(message, value);
  return value;
}

/** How much of a text is first made one line for its preview: the line's length a few times over. */
const FIRST_READ = PREVIEW_LENGTH * 4;

/**
 * A text as one line (its whitespace runs one space, trimmed), cut to PREVIEW_LENGTH with "…". Only a
 * start of the text is made one line, and more only when its whitespace collapses it below the line: a
 * tool result of kilobytes was read whole (and copied) for a line of 140 characters, and the line kept
 * that copy alive. The start's line is the whole text's line as far as it goes (a run of whitespace at
 * the cut is one space either way), so two characters past the line's length settle it.
 */
export function previewLine(text: string): string {
  for (let read = FIRST_READ; ; read *= 4) {
    const whole = read >= text.length;
    const line = (whole ? text : text.slice(0, read)).replace(/\s+/g, " ").trimStart();
    if (whole) {
      const trimmed = line.trimEnd();
      return trimmed.length > PREVIEW_LENGTH ? `${trimmed.slice(0, PREVIEW_LENGTH - 1)}…` : trimmed;
    }
    if (line.length >= PREVIEW_LENGTH + 2) return `${line.slice(0, PREVIEW_LENGTH - 1)}…`;
  }
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
