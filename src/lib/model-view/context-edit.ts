import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Fate } from "./project.ts";
import { editableContent } from "./session-projection.ts";

/**
 * What a person may do to a fact's part in the model's context, as pi's context edits allow: give the
 * model other text for it, leave it out, or undo either. The fact itself never changes.
 */
export interface ContextEditChoices {
  /** Other text for the model (only for text content: an edit replaces the whole content). */
  edit: boolean;
  omit: boolean;
  /** Undo an edit or an omission: the model reads the fact as it is again. */
  restore: boolean;
}

/**
 * The text of a fact whose content is text only (a string, or text parts joined by blank lines); undefined
 * for content with images, tool calls or thinking, which a text edit would lose.
 */
export function editableText(message: AgentMessage): string | undefined {
  const content = editableContent(message);
  if (content === undefined) return undefined;
  if (typeof content === "string") return content;
  const texts: string[] = [];
  for (const part of content as readonly { type: string; text?: unknown }[]) {
    if (part.type !== "text" || typeof part.text !== "string") return undefined;
    texts.push(part.text);
  }
  return texts.join("\n\n");
}

/**
 * The choices for a fact with this fate. A compacted fact is out of the context already (an edit of it
 * changes nothing, as in pi); a failed attempt was left out by Retry and stays so.
 */
export function contextEditChoices(message: AgentMessage, fate: Fate | undefined): ContextEditChoices {
  const editable = editableContent(message) !== undefined;
  if (
    !editable ||
    fate === undefined ||
    fate === "compacted" ||
    fate === "carried" ||
    fate === "unknown" ||
    fate === "failedAttempt"
  )
    return { edit: false, omit: false, restore: false };
  const changed = fate === "edited" || fate === "omitted";
  return {
    edit: editableText(message) !== undefined,
    omit: fate !== "omitted",
    restore: changed,
  };
}
