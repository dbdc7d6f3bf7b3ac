import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { isObject } from "../../shared/is-object.ts";
import { CUSTOM_ROLES, LLM_ROLES } from "./types.ts";

/**
 * Runtime validation of session facts that come from people or files: the injection dialog, imported
 * sessions and records read back from storage all pass through here, so each gets the same rules and
 * the same messages. Errors name the field they belong to, so a form can show each next to its input.
 */

export interface FieldError {
  /** Dotted path of the offending field ("exitCode", "content[1].text"); "" for the message as a whole. */
  field: string;
  message: string;
}

export type Validation = { ok: true; message: AgentMessage } | { ok: false; errors: FieldError[] };

type Json = Record<string, unknown>;

const STOP_REASONS = ["stop", "length", "toolUse", "error", "aborted", "pending", "deferred"];
const KNOWN_ROLES: readonly string[] = [...LLM_ROLES, ...CUSTOM_ROLES];

class Checker {
  readonly errors: FieldError[] = [];
  constructor(private readonly value: Json) {}

  fail(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  string(field: string, { optional = false, nonEmpty = false } = {}): void {
    const value = this.value[field];
    if (value === undefined && optional) return;
    if (typeof value !== "string") this.fail(field, `${field} must be text${optional ? " when given" : ""}.`);
    else if (nonEmpty && value.trim() === "") this.fail(field, `${field} must not be empty.`);
  }

  boolean(field: string, { optional = false } = {}): void {
    const value = this.value[field];
    if (value === undefined && optional) return;
    if (typeof value !== "boolean") this.fail(field, `${field} must be true or false.`);
  }

  number(
    field: string,
    {
      optional = false,
      integer = false,
      min,
      max,
    }: { optional?: boolean; integer?: boolean; min?: number; max?: number } = {},
  ): void {
    const value = this.value[field];
    if (value === undefined && optional) return;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      this.fail(field, `${field} must be a number${optional ? " or left empty" : ""}.`);
      return;
    }
    if (integer && !Number.isInteger(value)) this.fail(field, `${field} must be a whole number.`);
    if (min !== undefined && value < min) this.fail(field, `${field} must be at least ${min}.`);
    if (max !== undefined && value > max) this.fail(field, `${field} must be at most ${max}.`);
  }

  oneOf(field: string, options: readonly string[]): void {
    const value = this.value[field];
    if (typeof value !== "string" || !options.includes(value)) {
      this.fail(field, `${field} must be one of ${options.join(", ")}.`);
    }
  }

  timestamp(): void {
    this.number("timestamp", { min: 0 });
  }
}

function checkParts(checker: Checker, field: string, value: unknown, allowed: readonly string[]): void {
  if (!Array.isArray(value)) {
    checker.fail(field, `${field} must be a list of content parts.`);
    return;
  }
  value.forEach((part: unknown, index) => {
    const where = `${field}[${index}]`;
    if (!isObject(part) || typeof part.type !== "string" || !allowed.includes(part.type)) {
      checker.fail(where, `${where} must be a part of type ${allowed.join(" or ")}.`);
      return;
    }
    switch (part.type) {
      case "text":
        if (typeof part.text !== "string") checker.fail(`${where}.text`, `${where}.text must be text.`);
        break;
      case "thinking":
        if (typeof part.thinking !== "string")
          checker.fail(`${where}.thinking`, `${where}.thinking must be text.`);
        break;
      case "image":
        if (typeof part.data !== "string" || typeof part.mimeType !== "string") {
          checker.fail(where, `${where} (image) needs base64 "data" and a "mimeType".`);
        }
        break;
      case "toolCall":
        if (typeof part.id !== "string" || typeof part.name !== "string" || !isObject(part.arguments)) {
          checker.fail(where, `${where} (toolCall) needs an "id", a "name" and "arguments" as an object.`);
        }
        break;
    }
  });
}

function checkStringOrParts(checker: Checker, value: Json, field: string): void {
  if (typeof value[field] === "string") return;
  checkParts(checker, field, value[field], ["text", "image"]);
}

function checkUsage(checker: Checker, usage: unknown): void {
  if (!isObject(usage)) {
    checker.fail(
      "usage",
      "usage must be an object with input, output, cacheRead, cacheWrite, totalTokens and cost.",
    );
    return;
  }
  for (const key of ["input", "output", "cacheRead", "cacheWrite", "totalTokens"]) {
    if (typeof usage[key] !== "number") checker.fail(`usage.${key}`, `usage.${key} must be a number.`);
  }
  if (!isObject(usage.cost)) checker.fail("usage.cost", "usage.cost must be an object.");
}

export function validateMessage(value: unknown): Validation {
  if (!isObject(value))
    return { ok: false, errors: [{ field: "", message: "A message must be a JSON object." }] };
  const role = value.role;
  if (typeof role !== "string" || !KNOWN_ROLES.includes(role)) {
    return {
      ok: false,
      errors: [
        {
          field: "role",
          message: `Unknown role ${JSON.stringify(role)}; expected one of ${KNOWN_ROLES.join(", ")}.`,
        },
      ],
    };
  }
  const check = new Checker(value);
  check.timestamp();
  switch (role) {
    case "system":
      checkStringOrParts(check, value, "content");
      if (value.toolsAdded !== undefined && !Array.isArray(value.toolsAdded))
        check.fail("toolsAdded", "toolsAdded must be a list of tools.");
      if (value.toolsRemoved !== undefined && !Array.isArray(value.toolsRemoved)) {
        check.fail("toolsRemoved", "toolsRemoved must be a list of tool references.");
      }
      break;
    case "user":
      checkStringOrParts(check, value, "content");
      break;
    case "assistant":
      checkParts(check, "content", value.content, ["text", "thinking", "toolCall"]);
      check.string("api");
      check.string("provider");
      check.string("model");
      check.oneOf("stopReason", STOP_REASONS);
      checkUsage(check, value.usage);
      check.string("errorMessage", { optional: true });
      break;
    case "toolResult":
      check.string("toolCallId", { nonEmpty: true });
      check.string("toolName", { nonEmpty: true });
      checkParts(check, "content", value.content, ["text", "image"]);
      check.boolean("isError");
      break;
    case "bashExecution":
      check.string("command", { nonEmpty: true });
      check.string("output");
      check.number("exitCode", { optional: true, integer: true });
      check.boolean("cancelled");
      check.boolean("truncated");
      check.string("fullOutputPath", { optional: true });
      check.boolean("excludeFromContext", { optional: true });
      break;
    case "custom":
      check.string("customType", { nonEmpty: true });
      checkStringOrParts(check, value, "content");
      check.boolean("display");
      break;
    case "branchSummary":
      check.string("summary", { nonEmpty: true });
      if (value.fromId !== null && typeof value.fromId !== "string")
        check.fail("fromId", "fromId must be text or null.");
      break;
    case "compactionSummary":
      check.string("summary", { nonEmpty: true });
      check.number("tokensBefore", { integer: true, min: 0 });
      break;
    case "notification":
      check.string("text", { nonEmpty: true });
      check.oneOf("level", ["info", "warning", "error"]);
      break;
    case "approval_request":
      check.string("action", { nonEmpty: true });
      check.oneOf("status", ["pending", "approved", "rejected"]);
      check.string("subject", { optional: true });
      check.string("toolCallId", { optional: true });
      check.string("toolName", { optional: true });
      check.number("decidedAt", { optional: true, min: 0 });
      check.string("reason", { optional: true });
      break;
    case "progress":
      check.string("text", { nonEmpty: true });
      check.number("fraction", { optional: true, min: 0, max: 1 });
      break;
  }
  return check.errors.length > 0
    ? { ok: false, errors: check.errors }
    : { ok: true, message: value as unknown as AgentMessage };
}

/** "exitCode must be a whole number." — the errors of one validation, as one readable line. */
export function describeErrors(errors: readonly FieldError[]): string {
  return errors.map((error) => error.message).join(" ");
}
