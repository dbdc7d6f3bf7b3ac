import { defaultSettings } from "../../agent/session-settings.ts";
import type { NewCall } from "../../storage/records.ts";
import { zeroUsage } from "../../../shared/usage.ts";
import type { ParsedImport } from "../parsed-import.ts";
import { modelViewOf, rebuildRequest } from "./read-request.ts";
import { SHAPE_LABELS, type RebuiltRequest, type RequestShape } from "./rebuilt.ts";

/**
 * A raw request body as a session of one call and no facts: the body is the call's payload, the model
 * view is rebuilt from it in pi-ai's types, and what could not be mapped is listed on the call (and said
 * when importing). The call was never sent from here: it has no reply, usage or timing.
 */

/** The stop reason of a call that is a request only. */
export const REQUEST_ONLY = "requestOnly";

const PROVIDER_OF: Record<RequestShape, string> = {
  "openai-completions": "openai",
  "openai-responses": "openai",
  "anthropic-messages": "anthropic",
  "google-generative-ai": "google",
};

/** The request's settings as pi's stream options name them, where they have a name there. */
function optionsOf(settings: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (typeof settings.temperature === "number") options.temperature = settings.temperature;
  const max = settings.max_tokens ?? settings.max_completion_tokens ?? settings.max_output_tokens;
  if (typeof max === "number") options.maxTokens = max;
  return options;
}

/** What the call's note says: where it came from, and what was left out of its model view. */
export function requestNote(request: RebuiltRequest, source: string): string {
  const from = `Imported from ${source}, read as ${SHAPE_LABELS[request.shape]}: a request only, never sent from here.`;
  return request.unmapped.length === 0
    ? `${from} Everything in it is in the model view.`
    : `${from} Not mapped (kept in the payload only): ${request.unmapped.join("; ")}.`;
}

export function rawRequestImport(
  body: Record<string, unknown>,
  shape: RequestShape,
  source: string,
  now = Date.now(),
): { parsed: ParsedImport; request: RebuiltRequest } {
  const request = rebuildRequest(body, shape);
  const messages = modelViewOf(request);
  const call: NewCall = {
    summary: {
      id: crypto.randomUUID(),
      startedAt: now,
      provider: PROVIDER_OF[shape],
      modelId: request.model ?? "unknown",
      api: shape,
      options: optionsOf(request.settings),
      messageCount: messages.length,
      leafId: null,
      outcome: { stopReason: REQUEST_ONLY, usage: zeroUsage() },
      timing: { durationMs: 0 },
      capture: { messages: "all", payload: "all", note: requestNote(request, source) },
    },
    body: {
      messages: { kept: "all", value: messages, bytes: JSON.stringify(messages).length },
      sources: messages.map(() => null),
      payload: { kept: "all", value: body, bytes: JSON.stringify(body).length },
    },
  };
  const notes = ["one model call and no facts (a request body, without its reply)"];
  if (request.unmapped.length > 0)
    notes.push(
      request.unmapped.length === 1
        ? "one part of it has no place in pi-ai's types and is kept in the payload only (named on the call)"
        : `${request.unmapped.length} parts of it have no place in pi-ai's types and are kept in the payload only (named on the call)`,
    );
  return {
    request,
    parsed: {
      source: "raw-request",
      title: `Request: ${SHAPE_LABELS[shape]}${request.model ? `, ${request.model}` : ""}`,
      titleIsCustom: true,
      settings: defaultSettings(),
      entries: [],
      leafId: null,
      calls: [call],
      problems: [],
      notes,
      addSystemFact: false,
    },
  };
}
