import type {
  AssistantMessage,
  ImageContent,
  Message,
  SystemMessage,
  TextContent,
} from "@earendil-works/pi-ai";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import { UNCHANGED, type ProviderChange, type ProviderChanges } from "./provider-changes.ts";

/**
 * Whether one message is a rewrite of another, and what the rewrite changed, read from the two messages
 * alone: pi-ai spreads the original into the copy it rewrites, so every top-level field but the content
 * and the tool-call id is the very same value. The tracer (provider-trace.ts) decides which messages to
 * compare; nothing here knows pi-ai's rules either.
 */

type Block = AssistantMessage["content"][number] | TextContent | ImageContent;

interface AssistantDiff {
  thinkingDropped: number;
  thinkingWithText: boolean;
  signaturesStripped: number;
  rewrites: { from: string; to: string }[];
}

/**
 * The changes that turn `before` into `after`, or undefined when `after` is not a rewrite of `before`.
 * `rewrites` maps tool-call ids as they were to as they are sent: an assistant message's rewrites are added
 * to it, and a tool result is read against it, so a result whose id was rewritten is recognised once the
 * message that made its call has been compared.
 */
export function rewriteChanges(
  before: Message,
  after: Message,
  rewrites: Map<string, string>,
): ProviderChanges | undefined {
  if (before.role !== after.role || !sameFieldsBesidesContent(before, after)) return undefined;
  if (before.role === "assistant" && after.role === "assistant") {
    const diff = diffAssistantContent(before.content ?? [], after.content);
    if (!diff) return undefined;
    for (const rewrite of diff.rewrites) rewrites.set(rewrite.from, rewrite.to);
    return assistantChanges(diff);
  }
  if (before.role === "toolResult" && after.role === "toolResult") {
    const sentId =
      before.toolCallId === after.toolCallId || rewrites.get(before.toolCallId) === after.toolCallId;
    if (!sentId || !sameOrDowngraded(before.content, after.content)) return undefined;
    const changes: ProviderChange[] = [];
    if (before.toolCallId !== after.toolCallId) {
      changes.push({ kind: "tool-call-id-rewritten", from: before.toolCallId, to: after.toolCallId });
    }
    pushImageChange(changes, before.content, after.content);
    return changes.length > 0 ? changes : UNCHANGED;
  }
  if (before.role === "user" && after.role === "user") {
    if (!sameOrDowngraded(before.content, after.content)) return undefined;
    const changes: ProviderChange[] = [];
    pushImageChange(changes, before.content, after.content);
    return changes.length > 0 ? changes : UNCHANGED;
  }
  // System messages and roles pi-ai does not know: only an absent content read as empty is a rewrite.
  return sameOrEmptied(before.content, after.content) ? UNCHANGED : undefined;
}

const REWRITABLE_FIELDS = new Set(["content", "toolCallId"]);

/** Every top-level field but content and tool-call id is the very same value on both sides. */
function sameFieldsBesidesContent(before: object, after: object): boolean {
  const left = before as Record<string, unknown>;
  const right = after as Record<string, unknown>;
  for (const key in left) if (!REWRITABLE_FIELDS.has(key) && left[key] !== right[key]) return false;
  for (const key in right) if (!REWRITABLE_FIELDS.has(key) && left[key] !== right[key]) return false;
  return true;
}

function sameOrEmptied(before: unknown, after: unknown): boolean {
  return before === after || (before == null && Array.isArray(after) && after.length === 0);
}

/**
 * Whether `after` is `before` with its images taken out: every other block the very same object, in order,
 * and at most one new text block where a run of images was (the placeholder; none when a placeholder
 * already stood right before the run).
 */
function sameOrDowngraded(before: unknown, after: unknown): boolean {
  if (sameOrEmptied(before, after)) return true;
  if (!Array.isArray(before) || !Array.isArray(after)) return false;
  const blocks = before as readonly Block[];
  let next = 0;
  let inImageRun = false;
  for (const block of blocks) {
    if (block.type === "image") {
      const sent = after[next] as Block | undefined;
      if (!inImageRun && sent?.type === "text" && !blocks.includes(sent)) next++;
      inImageRun = true;
      continue;
    }
    inImageRun = false;
    if (after[next] !== block) return false;
    next++;
  }
  return next === after.length;
}

function imageCount(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let images = 0;
  for (const block of content as readonly Block[]) if (block.type === "image") images++;
  return images;
}

function pushImageChange(changes: ProviderChange[], before: unknown, after: unknown): void {
  const images = imageCount(before) - imageCount(after);
  if (images > 0) changes.push({ kind: "images-downgraded", images });
}

/**
 * Aligns an assistant message's blocks with the blocks sent. A block sent as the very same object is kept;
 * one of the same type and the same text, or the same tool name and arguments, was rebuilt (its id or
 * signature may differ); a thinking block with no counterpart was dropped. Anything else: not this message.
 */
function diffAssistantContent(before: readonly Block[], after: readonly Block[]): AssistantDiff | undefined {
  const diff: AssistantDiff = {
    thinkingDropped: 0,
    thinkingWithText: false,
    signaturesStripped: 0,
    rewrites: [],
  };
  let next = 0;
  for (const block of before) {
    const sent = after[next];
    if (sent === block) {
      next++;
      continue;
    }
    if (sent !== undefined && rebuiltFrom(block, sent, diff)) {
      next++;
      continue;
    }
    if (block.type !== "thinking") return undefined;
    diff.thinkingDropped++;
    if (block.thinking.trim() !== "") diff.thinkingWithText = true;
  }
  return next === after.length ? diff : undefined;
}

function rebuiltFrom(block: Block, sent: Block, diff: AssistantDiff): boolean {
  if (block.type === "text" && sent.type === "text") {
    if (block.text !== sent.text) return false;
    if (block.textSignature !== undefined && sent.textSignature === undefined) diff.signaturesStripped++;
    return true;
  }
  if (block.type === "toolCall" && sent.type === "toolCall") {
    if (block.name !== sent.name || block.arguments !== sent.arguments) return false;
    if (block.thoughtSignature !== undefined && sent.thoughtSignature === undefined)
      diff.signaturesStripped++;
    if (block.id !== sent.id) diff.rewrites.push({ from: block.id, to: sent.id });
    return true;
  }
  if (block.type === "thinking" && sent.type === "thinking") return block.thinking === sent.thinking;
  return false;
}

function assistantChanges(diff: AssistantDiff): ProviderChanges {
  const changes: ProviderChange[] = [];
  if (diff.thinkingDropped > 0) {
    changes.push({
      kind: "thinking-dropped",
      blocks: diff.thinkingDropped,
      reason: diff.thinkingWithText ? "another-model" : "empty",
    });
  }
  for (const { from, to } of diff.rewrites) changes.push({ kind: "tool-call-id-rewritten", from, to });
  if (diff.signaturesStripped > 0)
    changes.push({ kind: "signature-stripped", blocks: diff.signaturesStripped });
  return changes.length > 0 ? changes : UNCHANGED;
}

/** The same prompt text and the same tools, in order: what a provider receives of a system message. */
export function sameSystemPrompt(before: SystemMessage, after: SystemMessage): boolean {
  const toolsBefore = before.toolsAdded ?? [];
  const toolsAfter = after.toolsAdded ?? [];
  return (
    getSystemMessageText(before) === getSystemMessageText(after) &&
    (before.toolsRemoved ?? []).length === 0 &&
    toolsBefore.length === toolsAfter.length &&
    toolsBefore.every((tool, index) => tool === toolsAfter[index])
  );
}
