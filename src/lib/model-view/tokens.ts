import type { AgentMessage } from "@earendil-works/pi-agent-core";

/**
 * Token estimate: characters / 4, rounded up, over everything a message carries as text (tool
 * arguments as JSON; an image counts as 1,200 tokens). The same heuristic pi uses for context
 * accounting; real tokenizers differ by model, so the figure is labelled an estimate everywhere.
 */
export const TOKEN_ESTIMATOR_LABEL = "≈ characters ÷ 4";
const IMAGE_TOKENS = 1_200;

/**
 * Estimates that took serializing (tool arguments, tool definitions), by message. Summing text lengths
 * costs less than remembering the sum: a session just opened estimates every one of its facts once.
 */
const serialized = new WeakMap<object, number>();

export function estimateTokens(message: AgentMessage): number {
  const hit = serialized.get(message);
  if (hit !== undefined) return hit;
  const { chars, images, costly } = measure(message);
  const tokens = Math.ceil(chars / 4) + images * IMAGE_TOKENS;
  if (costly) serialized.set(message, tokens);
  return tokens;
}

interface Size {
  chars: number;
  images: number;
  /** Measuring it serialized something: worth remembering. */
  costly?: boolean;
}

type Part = { type: string; text?: string; thinking?: string; arguments?: unknown; data?: string };

function measureParts(content: string | readonly Part[] | undefined): Size {
  if (content === undefined) return { chars: 0, images: 0 };
  if (typeof content === "string") return { chars: content.length, images: 0 };
  let chars = 0;
  let images = 0;
  let costly = false;
  for (const part of content) {
    if (part.type === "image") images++;
    else if (part.type === "text") chars += part.text?.length ?? 0;
    else if (part.type === "thinking") chars += part.thinking?.length ?? 0;
    else if (part.type === "toolCall") {
      chars += JSON.stringify(part.arguments ?? {}).length;
      costly = true;
    }
  }
  return { chars, images, costly };
}

function measure(message: AgentMessage): Size {
  switch (message.role) {
    case "system": {
      const base = measureParts(message.content);
      const sections = Object.values(message.sections ?? {}).reduce(
        (sum, value) => sum + (value?.length ?? 0),
        0,
      );
      const tools = message.toolsAdded ? JSON.stringify(message.toolsAdded).length : 0;
      return { chars: base.chars + sections + tools, images: base.images, costly: true };
    }
    case "user":
    case "assistant":
    case "toolResult":
    case "custom":
      return measureParts(message.content as string | Part[]);
    case "bashExecution":
      return { chars: message.command.length + message.output.length, images: 0 };
    case "branchSummary":
    case "compactionSummary":
      return { chars: message.summary.length, images: 0 };
    case "notification":
    case "progress":
      return { chars: message.text.length, images: 0 };
    case "approval_request":
      return {
        chars: message.action.length + (message.subject?.length ?? 0) + (message.reason?.length ?? 0),
        images: 0,
      };
    default:
      // A role this version does not know is never sent, so it costs nothing.
      return { chars: 0, images: 0 };
  }
}
