import type { Captured } from "../../shared/api-types.ts";
import { HttpError } from "../../shared/http-error.ts";
import { isObject } from "../../shared/is-object.ts";
import type {
  ControlCommand,
  ControlRequest,
  IngestBatch,
  IngestEvent,
  LiveAsk,
  LiveCall,
} from "../../shared/live/live-protocol.ts";

/**
 * Checking what a pi sends before the server keeps any of it: the shape of the batch and of each event,
 * down to what the server itself reads (ids, counts, the parts of a call). Session entries are checked
 * here only as far as the server relies on them (an object with a type and an id); the page reads them
 * with the same code that imports pi's session files. Anything else is refused with 400 and a sentence
 * naming the place.
 */

const MAX_EVENTS_PER_BATCH = 10_000;

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

function string(value: unknown, where: string): string {
  if (typeof value !== "string") fail(`${where} must be a string`);
  return value;
}

function id(value: unknown, where: string): string {
  const text = string(value, where);
  if (text === "" || text.length > 200) fail(`${where} must be a non-empty id of at most 200 characters`);
  return text;
}

function number(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    fail(`${where} must be a number ≥ 0`);
  return value;
}

function boolean(value: unknown, where: string): boolean {
  if (typeof value !== "boolean") fail(`${where} must be true or false`);
  return value;
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (!isObject(value)) fail(`${where} must be an object`);
  return value;
}

function leaf(value: unknown, where: string): string | null {
  return value === null ? null : id(value, where);
}

function entries(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(`${where} must be a list`);
  value.forEach((entry, index) => {
    const fields = object(entry, `${where}[${index}]`);
    string(fields.type, `${where}[${index}].type`);
    id(fields.id, `${where}[${index}].id`);
    if (fields.parentId !== null) id(fields.parentId, `${where}[${index}].parentId`);
  });
  return value;
}

function captured<T>(value: unknown, where: string, list = false): Captured<T> {
  const part = object(value, where);
  const bytes = number(part.bytes, `${where}.bytes`);
  switch (part.kept) {
    case "all":
      if (list && !Array.isArray(part.value)) fail(`${where}.value must be a list`);
      return { kept: "all", bytes, value: part.value as T };
    case "truncated":
      return { kept: "truncated", bytes, text: string(part.text, `${where}.text`) };
    case "none":
      return { kept: "none", bytes, reason: string(part.reason, `${where}.reason`) };
    default:
      return fail(`${where}.kept must be "all", "truncated" or "none"`);
  }
}

function indices(value: unknown, where: string): number[] {
  if (!Array.isArray(value)) fail(`${where} must be a list`);
  return value.map((item, index) => number(item, `${where}[${index}]`));
}

function headers(value: unknown, where: string): Record<string, string> {
  const fields = object(value, where);
  const out: Record<string, string> = {};
  for (const [name, header] of Object.entries(fields)) out[name] = string(header, `${where}.${name}`);
  return out;
}

function call(value: unknown, where: string): LiveCall {
  const fields = object(value, where);
  const outcome = object(fields.outcome, `${where}.outcome`);
  const timing = object(fields.timing, `${where}.timing`);
  const response = fields.response === undefined ? undefined : object(fields.response, `${where}.response`);
  return {
    id: id(fields.id, `${where}.id`),
    startedAt: number(fields.startedAt, `${where}.startedAt`),
    provider: string(fields.provider, `${where}.provider`),
    modelId: string(fields.modelId, `${where}.modelId`),
    api: string(fields.api, `${where}.api`),
    ...(fields.thinkingLevel !== undefined
      ? { thinkingLevel: string(fields.thinkingLevel, `${where}.thinkingLevel`) }
      : {}),
    leafId: leaf(fields.leafId, `${where}.leafId`),
    ...(fields.replyEntryId !== undefined
      ? { replyEntryId: id(fields.replyEntryId, `${where}.replyEntryId`) }
      : {}),
    transcript: captured<unknown[]>(fields.transcript, `${where}.transcript`, true),
    messages: captured<unknown[]>(fields.messages, `${where}.messages`, true),
    ...(fields.messageSources !== undefined
      ? { messageSources: indices(fields.messageSources, `${where}.messageSources`) }
      : {}),
    payload: captured<unknown>(fields.payload, `${where}.payload`),
    ...(response
      ? {
          response: {
            status: number(response.status, `${where}.response.status`),
            headers: headers(response.headers, `${where}.response.headers`),
          },
        }
      : {}),
    outcome: {
      stopReason: string(outcome.stopReason, `${where}.outcome.stopReason`),
      ...(outcome.usage !== undefined ? { usage: object(outcome.usage, `${where}.outcome.usage`) } : {}),
      ...(outcome.errorMessage !== undefined
        ? { errorMessage: string(outcome.errorMessage, `${where}.outcome.errorMessage`) }
        : {}),
    },
    timing: {
      ...(timing.firstTokenMs !== undefined
        ? { firstTokenMs: number(timing.firstTokenMs, `${where}.timing.firstTokenMs`) }
        : {}),
      durationMs: number(timing.durationMs, `${where}.timing.durationMs`),
    },
  };
}

function ask(value: unknown, where: string): LiveAsk {
  const fields = object(value, where);
  const common = {
    id: id(fields.id, `${where}.id`),
    askedAt: number(fields.askedAt, `${where}.askedAt`),
    timeoutMs: number(fields.timeoutMs, `${where}.timeoutMs`),
  };
  if (fields.kind === "tool")
    return {
      kind: "tool",
      ...common,
      toolName: string(fields.toolName, `${where}.toolName`),
      args: fields.args,
    };
  if (fields.kind === "call")
    return {
      kind: "call",
      ...common,
      provider: string(fields.provider, `${where}.provider`),
      modelId: string(fields.modelId, `${where}.modelId`),
      payload: captured<unknown>(fields.payload, `${where}.payload`),
    };
  return fail(`${where}.kind must be "tool" or "call"`);
}

function event(value: unknown, where: string): IngestEvent {
  const fields = object(value, where);
  switch (fields.type) {
    case "session": {
      const about = object(fields.about, `${where}.about`);
      const header = object(fields.header, `${where}.header`);
      if (header.type !== "session") fail(`${where}.header.type must be "session"`);
      id(header.id, `${where}.header.id`);
      return {
        type: "session",
        about: {
          cwd: string(about.cwd, `${where}.about.cwd`),
          pid: number(about.pid, `${where}.about.pid`),
          mode: string(about.mode, `${where}.about.mode`),
          control: boolean(about.control, `${where}.about.control`),
          askTimeoutMs: number(about.askTimeoutMs, `${where}.about.askTimeoutMs`),
          ...(about.sessionFile !== undefined
            ? { sessionFile: string(about.sessionFile, `${where}.about.sessionFile`) }
            : {}),
        },
        header,
        entries: entries(fields.entries, `${where}.entries`),
        leafId: leaf(fields.leafId, `${where}.leafId`),
      };
    }
    case "entries":
      return {
        type: "entries",
        from: number(fields.from, `${where}.from`),
        entries: entries(fields.entries, `${where}.entries`),
        leafId: leaf(fields.leafId, `${where}.leafId`),
      };
    case "call":
      return { type: "call", call: call(fields.call, `${where}.call`) };
    case "tool": {
      if (fields.phase !== "start" && fields.phase !== "end") fail(`${where}.phase must be "start" or "end"`);
      return {
        type: "tool",
        phase: fields.phase,
        toolCallId: id(fields.toolCallId, `${where}.toolCallId`),
        toolName: string(fields.toolName, `${where}.toolName`),
        ...(fields.isError !== undefined ? { isError: boolean(fields.isError, `${where}.isError`) } : {}),
        ...(fields.durationMs !== undefined
          ? { durationMs: number(fields.durationMs, `${where}.durationMs`) }
          : {}),
      };
    }
    case "run":
      return { type: "run", running: boolean(fields.running, `${where}.running`) };
    case "ask":
      return { type: "ask", ask: ask(fields.ask, `${where}.ask`) };
    case "settled":
      return {
        type: "settled",
        id: id(fields.id, `${where}.id`),
        outcome: string(fields.outcome, `${where}.outcome`),
      };
    case "bye":
      return { type: "bye" };
    default:
      return fail(`${where}.type ${JSON.stringify(fields.type)} is not an event this playground knows`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `Malformed live event: not JSON (${(error as Error).message}).`);
  }
}

/** A batch from a pi's extension, checked; throws HttpError 400 naming what is wrong. */
export function parseBatch(text: string): IngestBatch {
  const value = parseJson(text);
  try {
    const fields = object(value, "the batch");
    if (!Array.isArray(fields.events)) fail("the batch's events must be a list");
    if (fields.events.length > MAX_EVENTS_PER_BATCH)
      fail(`a batch holds at most ${MAX_EVENTS_PER_BATCH} events`);
    return {
      connection: id(fields.connection, "the batch's connection"),
      dropped: number(fields.dropped, "the batch's dropped count"),
      events: fields.events.map((item, index) => event(item, `events[${index}]`)),
    };
  } catch (error) {
    if (error instanceof Invalid) throw new HttpError(400, `Malformed live event: ${error.message}.`);
    throw error;
  }
}

/** A command from the page, checked; throws HttpError 400 naming what is wrong. */
export function parseControl(text: string): ControlRequest {
  const value = parseJson(text);
  try {
    const fields = object(value, "the request");
    const command = object(fields.command, "command");
    return { connection: id(fields.connection, "connection"), command: controlCommand(command) };
  } catch (error) {
    if (error instanceof Invalid) throw new HttpError(400, `Malformed control request: ${error.message}.`);
    throw error;
  }
}

function controlCommand(fields: Record<string, unknown>): ControlCommand {
  switch (fields.type) {
    case "control":
      return { type: "control", on: boolean(fields.on, "command.on") };
    case "gates": {
      const gates = object(fields.gates, "command.gates");
      return {
        type: "gates",
        gates: {
          tools: boolean(gates.tools, "command.gates.tools"),
          calls: boolean(gates.calls, "command.gates.calls"),
        },
      };
    }
    case "inject": {
      const message = object(fields.message, "command.message");
      if (fields.deliverAs !== "steer" && fields.deliverAs !== "followUp" && fields.deliverAs !== "nextTurn")
        fail('command.deliverAs must be "steer", "followUp" or "nextTurn"');
      const content = message.content;
      if (typeof content !== "string" && !Array.isArray(content))
        fail("command.message.content must be text or a list of content blocks");
      return {
        type: "inject",
        deliverAs: fields.deliverAs,
        message: {
          customType: id(message.customType, "command.message.customType"),
          content,
          display: boolean(message.display, "command.message.display"),
          ...(message.details !== undefined ? { details: message.details } : {}),
        },
      };
    }
    case "answer":
      return {
        type: "answer",
        id: id(fields.id, "command.id"),
        approve: boolean(fields.approve, "command.approve"),
        ...(fields.reason !== undefined ? { reason: string(fields.reason, "command.reason") } : {}),
      };
    case "abort":
      return { type: "abort" };
    default:
      return fail(`command.type ${JSON.stringify(fields.type)} is not a command this playground knows`);
  }
}
