import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { formatJsonBounded } from "../ui/bounded-json.ts";
import { CUSTOM_ROLES, LLM_ROLES } from "./types.ts";

const KNOWN: ReadonlySet<string> = new Set([...LLM_ROLES, ...CUSTOM_ROLES]);

/** Badge text for a fact: its role, or for custom messages (and others that name one) their custom type too. */
export function roleBadge(message: AgentMessage): string {
  if (message.role === "custom") return `custom:${message.customType}`;
  return KNOWN.has(message.role) ? message.role : unknownFactLabel(message);
}

/**
 * What a fact of a role nobody here defined is called: its role, and the custom type it names if it has
 * one (a live pi's extension, a later pi or a file may bring such facts; they are shown, never dropped).
 */
export function unknownFactLabel(message: object): string {
  const fields = message as { role?: unknown; customType?: unknown };
  const role = typeof fields.role === "string" && fields.role !== "" ? fields.role : "(no role)";
  return typeof fields.customType === "string" ? `${role}:${fields.customType}` : role;
}

const PREVIEW_LENGTH = 140;
const cache = new WeakMap<object, string>();

/** One line that tells a fact apart from its neighbours; cached per (immutable) message object. */
export function preview(message: AgentMessage): string {
  const hit = cache.get(message);
  if (hit !== undefined) return hit;
  const line = oneLine(describe(message));
  const value = line.length > PREVIEW_LENGTH ? `${line.slice(0, PREVIEW_LENGTH - 1)}…` : line;
  cache.set(message, value);
  return value;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

type Part = {
  type: string;
  text?: string;
  thinking?: string;
  name?: string;
  mimeType?: string;
  arguments?: unknown;
};

function partsText(content: string | readonly Part[]): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      switch (part.type) {
        case "text":
          return part.text ?? "";
        case "thinking":
          return `(thinking) ${part.thinking ?? ""}`;
        case "toolCall":
          return `→ ${part.name ?? "tool"}(${formatJsonBounded(part.arguments ?? {}, { indent: 0, maxChars: PREVIEW_LENGTH })})`;
        case "image":
          return `[image ${part.mimeType ?? ""}]`;
        default:
          return "";
      }
    })
    .filter(Boolean)
    .join(" ");
}

function describe(message: AgentMessage): string {
  switch (message.role) {
    case "system": {
      const text = partsText(message.content as string | Part[]);
      const tools = [
        ...(message.toolsAdded?.map((tool) => `+${tool.name}`) ?? []),
        ...(message.toolsRemoved?.map((tool) => `-${tool.name}`) ?? []),
      ];
      return (
        [text, tools.length > 0 ? `tools ${tools.join(" ")}` : ""].filter(Boolean).join(" · ") || "(empty)"
      );
    }
    case "user":
    case "custom":
      return partsText(message.content as string | Part[]) || "(empty)";
    case "assistant": {
      const text = partsText(message.content as Part[]);
      const problem =
        message.stopReason === "error" || message.stopReason === "aborted" ? `[${message.stopReason}] ` : "";
      return `${problem}${text || message.errorMessage || "(empty)"}`;
    }
    case "toolResult":
      return `${message.toolName}${message.isError ? " (error)" : ""}: ${partsText(message.content as Part[])}`;
    case "bashExecution":
      return `${message.excludeFromContext ? "!!" : "!"}${message.command} → ${message.cancelled ? "cancelled" : `exit ${message.exitCode ?? "?"}`}`;
    case "branchSummary":
    case "compactionSummary":
      return message.summary;
    case "notification":
      return `${message.level ?? "info"}: ${message.text}`;
    case "approval_request":
      return `${message.action} — ${message.status}${message.subject ? ` (${message.subject})` : ""}`;
    case "progress":
      return `${message.fraction === undefined ? "" : `${Math.round(message.fraction * 100)}% `}${message.text}`;
    default: {
      // A role nobody here defined (see unknownFactLabel): what it holds, as JSON.
      const unknownRole: object = message;
      return formatJsonBounded(unknownRole, { indent: 0, maxChars: PREVIEW_LENGTH * 2 });
    }
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
