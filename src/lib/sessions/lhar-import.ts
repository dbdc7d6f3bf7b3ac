import type { Usage } from "@earendil-works/pi-ai";
import {
  validateEntry,
  validateSession,
  validateWrapped,
  type LharValidationError,
} from "virtual:lhar-validator";
import type { LharCategory } from "../messages/kinds/kind.ts";
import { nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import type { Captured, NewCall } from "../storage/records.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import { isObject } from "../../shared/is-object.ts";
import { ImportError, titleFrom, type ParsedImport } from "./parsed-import.ts";
import { readJsonLines } from "./pi-session-file.ts";
import { modelViewOfPayload } from "./raw-request/read-request.ts";

/**
 * Reading an LHAR file (the LLM HTTP Archive of Context Lens, and the playground's own LHAR export) as a
 * session of calls with no facts: every entry becomes a recorded call with its usage, timing, model and
 * the composition the file measured; its request body, when the file has one, is the call's payload, and
 * the model view is rebuilt from it where its shape allows. The file is validated against the vendored
 * schema (src/lib/sessions/lhar.schema.json, compiled when the page is built); a file that does not
 * validate is refused whole, naming the first thing wrong and where, before anything is stored.
 */

/** The fields of an entry the import reads; the schema has checked their types. */
interface LharEntryRead {
  id: string;
  timestamp: string;
  gen_ai: {
    system: string;
    request: { model: string; max_tokens: number | null; temperature: number | null };
    response: { finish_reasons: string[] };
    usage: { input_tokens: number; output_tokens: number };
  };
  usage_ext: { cache_read_tokens: number; cache_write_tokens: number; cost_usd: number | null };
  http: { api_format: string };
  timings: { wait_ms: number; total_ms: number; tokens_per_second: number | null } | null;
  transfer: { request_bytes: number };
  context_lens: {
    window_size: number;
    composition: { category: LharCategory; tokens: number; count: number }[];
  };
  raw: { request_body: Record<string, unknown> | null };
}

/** `.lhar` (lines) or `.lhar.json` (one document); the name decides first, else the content. */
export function isLharFileName(fileName: string): boolean {
  return /\.lhar(\.json)?$/i.test(fileName);
}

/** A parsed JSON document that is an LHAR document (`{"lhar": {...}}`). */
export function looksLikeLharDocument(value: unknown): boolean {
  return isObject(value) && isObject(value.lhar) && Object.keys(value).length === 1;
}

/** JSON lines whose first value is an LHAR session or entry line. */
export function looksLikeLharLines(first: unknown): boolean {
  return (
    isObject(first) &&
    ((first.type === "session" && typeof first.trace_id === "string") ||
      (first.type === "entry" && isObject(first.gen_ai)))
  );
}

/** "gen_ai.usage.input_tokens" from "/gen_ai/usage/input_tokens". */
function fieldOf(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : `${index === 0 ? "" : "."}${part}`))
    .join("");
}

/** One schema error in words, naming the field. */
function describeError(error: LharValidationError, prefix: string): string {
  const field = fieldOf(error.instancePath);
  const at = [prefix, field]
    .filter((part) => part !== "")
    .join(prefix && field && !field.startsWith("[") ? "." : "");
  const where = at === "" ? "the file" : at;
  const params = error.params;
  switch (error.keyword) {
    case "required":
      return `${where} lacks the required field "${String(params.missingProperty)}"`;
    case "additionalProperties":
      return `${where} has a field "${String(params.additionalProperty)}" the LHAR schema does not allow`;
    case "enum":
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
    case "const":
      return `${where} must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${where} ${error.message ?? "does not match the LHAR schema"}`;
  }
}

function refuse(fileName: string, what: string): never {
  throw new ImportError(`${fileName} is not a valid LHAR file: ${what}. Nothing was imported.`);
}

/** Read a `.lhar.json` document; refused whole when it does not validate. */
export function parseLharDocument(document: unknown, fileName: string): ParsedImport {
  if (!validateWrapped(document)) {
    const error = validateWrapped.errors?.[0];
    const entryIndex = error?.instancePath.match(/^\/lhar\/entries\/(\d+)/)?.[1];
    if (error && entryIndex !== undefined) {
      const rest = error.instancePath.slice(`/lhar/entries/${entryIndex}`.length);
      refuse(
        fileName,
        `entry ${Number(entryIndex) + 1} (lhar.entries[${entryIndex}]): ${describeError({ ...error, instancePath: rest }, "")}`,
      );
    }
    refuse(fileName, error ? describeError(error, "") : "it does not match the LHAR schema");
  }
  const lhar = (document as { lhar: { entries: unknown[]; sessions: { model: string }[] } }).lhar;
  return parsedOf(
    lhar.entries.map((entry, index) => ({ entry, where: `entry ${index + 1} (lhar.entries[${index}])` })),
    fileName,
  );
}

/** Read a `.lhar` file's lines: session lines, then entry lines; refused whole at the first bad line. */
export function parseLharLines(text: string, fileName: string): ParsedImport {
  const { values, problems } = readJsonLines(text);
  const broken = problems[0];
  if (broken) refuse(fileName, `line ${broken.line} is ${broken.message.replace(/; skipped$/, "")}`);
  const entries: { entry: unknown; where: string }[] = [];
  for (const { line, value } of values) {
    if (isObject(value) && value.type === "session") {
      if (!validateSession(value))
        refuse(fileName, `line ${line}: ${describeErrors(validateSession.errors, "")}`);
      continue;
    }
    if (!validateEntry(value)) refuse(fileName, `line ${line}: ${describeErrors(validateEntry.errors, "")}`);
    entries.push({ entry: value, where: `line ${line}` });
  }
  return parsedOf(entries, fileName);
}

function describeErrors(errors: LharValidationError[] | null | undefined, prefix: string): string {
  const error = errors?.[0];
  return error ? describeError(error, prefix) : "it does not match the LHAR schema";
}

function parsedOf(entries: { entry: unknown; where: string }[], fileName: string): ParsedImport {
  if (entries.length === 0) refuse(fileName, "it holds no entry (no model call)");
  const calls: NewCall[] = [];
  const notes: string[] = [];
  let modelViews = 0;
  for (const { entry, where } of entries) {
    if (nestsDeeperThan(entry)) refuse(fileName, `${where} nests ${tooDeepMessage()}`);
    const call = callOf(entry as LharEntryRead);
    if (call.body.messages.kept === "all") modelViews++;
    calls.push(call);
  }
  const withBody = calls.filter((call) => call.body.payload.kept === "all").length;
  notes.push(
    `${calls.length === 1 ? "one model call" : `${calls.length.toLocaleString("en-US")} model calls`} and no facts (an LHAR file records calls, not the session that made them)`,
  );
  if (withBody < calls.length)
    notes.push(
      `${calls.length - withBody === calls.length ? "no call has" : `${(calls.length - withBody).toLocaleString("en-US")} calls have`} a request body in the file, so their payload and model view are not known`,
    );
  else if (modelViews < withBody)
    notes.push(
      `the model view of ${(withBody - modelViews).toLocaleString("en-US")} calls could not be rebuilt from their request body (open the call to see why)`,
    );
  return {
    source: "lhar",
    title: titleFrom(fileName),
    titleIsCustom: false,
    settings: defaultSettings(),
    entries: [],
    leafId: null,
    calls,
    problems: [],
    notes,
    addSystemFact: false,
  };
}

function usageOf(entry: LharEntryRead): Usage {
  const input = entry.gen_ai.usage.input_tokens;
  const output = entry.gen_ai.usage.output_tokens;
  const cacheRead = entry.usage_ext.cache_read_tokens;
  const cacheWrite = entry.usage_ext.cache_write_tokens;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    // The file gives the total cost only.
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: entry.usage_ext.cost_usd ?? 0 },
  };
}

function callOf(entry: LharEntryRead): NewCall {
  const started = Date.parse(entry.timestamp);
  const timings = entry.timings;
  const body = entry.raw.request_body;
  const bytes =
    entry.transfer.request_bytes > 0 ? entry.transfer.request_bytes : body ? JSON.stringify(body).length : 0;
  const payload: Captured<unknown> = body
    ? { kept: "all", value: body, bytes }
    : { kept: "none", bytes: 0, reason: "the LHAR file holds no request body for this call" };
  const view = body ? modelViewOfPayload(body, entry.http.api_format) : undefined;
  const messages: NewCall["body"]["messages"] = view?.ok
    ? { kept: "all", value: view.messages, bytes: JSON.stringify(view.messages).length }
    : {
        kept: "none",
        bytes: 0,
        reason: view
          ? `the request body could not be read as messages: ${view.reason}`
          : "the LHAR file holds no request body",
      };
  const options: Record<string, unknown> = {};
  if (entry.gen_ai.request.max_tokens !== null) options.maxTokens = entry.gen_ai.request.max_tokens;
  if (entry.gen_ai.request.temperature !== null) options.temperature = entry.gen_ai.request.temperature;
  return {
    summary: {
      id: entry.id,
      startedAt: Number.isFinite(started) ? started : 0,
      provider: entry.gen_ai.system,
      modelId: entry.gen_ai.request.model,
      api: entry.http.api_format,
      options,
      messageCount: view?.ok ? view.messages.length : 0,
      leafId: null,
      outcome: { stopReason: entry.gen_ai.response.finish_reasons[0] ?? "stop", usage: usageOf(entry) },
      timing: {
        durationMs: timings?.total_ms ?? 0,
        ...(timings && timings.wait_ms < timings.total_ms ? { firstTokenMs: timings.wait_ms } : {}),
        ...(timings?.tokens_per_second != null ? { outputTokensPerSecond: timings.tokens_per_second } : {}),
      },
      capture: {
        messages: messages.kept,
        payload: payload.kept,
        note: `Imported from an LHAR file: usage, timing and composition as the file recorded them.${view?.ok && view.unmapped.length > 0 ? ` Not mapped to the model view (kept in the payload only): ${view.unmapped.join("; ")}.` : ""}`,
      },
      recorded: {
        format: "lhar",
        composition: entry.context_lens.composition.map(({ category, tokens, count }) => ({
          category,
          tokens,
          count,
        })),
        window: entry.context_lens.window_size,
      },
    },
    body: {
      messages,
      sources: view?.ok ? view.messages.map(() => null) : [],
      payload,
    },
  };
}
