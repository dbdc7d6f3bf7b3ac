import { LHAR_CATEGORY, type LharCategory } from "./categories.ts";
import type { CallAnatomy } from "./session-anatomy.ts";

/**
 * The session's calls as LHAR, the LLM HTTP Archive format of Context Lens (a local proxy that
 * analyses the context of agents' model calls), so a playground session opens in that tool. The shapes
 * follow its published JSON Schema (vendored as `src/lib/sessions/lhar.schema.json`, where the importer validates against it; checked by a test).
 * What the playground cannot know at the HTTP level is given as the format allows: no URL or status for
 * a call that never reached a provider through us, no response body, headers left empty.
 */
export const LHAR_VERSION = "0.1.0";

export interface LharCreator {
  name: string;
  version: string;
}

export interface LharCompositionEntry {
  category: LharCategory;
  tokens: number;
  pct: number;
  count: number;
}

export interface LharSession {
  trace_id: string;
  started_at: string;
  tool: string;
  model: string;
}

export interface LharEntry {
  type: "entry";
  id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  timestamp: string;
  sequence: number;
  source: {
    tool: string;
    tool_version: string | null;
    agent_role: string;
    collector: string;
    collector_version: string;
  };
  gen_ai: {
    system: string;
    request: {
      model: string;
      max_tokens: number | null;
      temperature: number | null;
      top_p: number | null;
      stop_sequences: string[];
    };
    response: { model: string | null; finish_reasons: string[] };
    usage: { input_tokens: number; output_tokens: number; total_tokens: number };
  };
  usage_ext: { cache_read_tokens: number; cache_write_tokens: number; cost_usd: number | null };
  http: {
    method: string;
    url: string | null;
    status_code: number | null;
    api_format: string;
    stream: boolean;
    request_headers: Record<string, string>;
    response_headers: Record<string, string>;
  };
  timings: {
    send_ms: number;
    wait_ms: number;
    receive_ms: number;
    total_ms: number;
    tokens_per_second: number | null;
  } | null;
  transfer: { request_bytes: number; response_bytes: number; compressed: boolean };
  context_lens: {
    window_size: number;
    utilization: number;
    system_tokens: number;
    tools_tokens: number;
    messages_tokens: number;
    composition: LharCompositionEntry[];
    growth: {
      tokens_added_this_turn: number | null;
      cumulative_tokens: number;
      compaction_detected: boolean;
    };
    security: {
      alerts: never[];
      summary: { high: number; medium: number; info: number };
    };
  };
  raw: {
    request_body: Record<string, unknown> | null;
    response_body: Record<string, unknown> | string | null;
  };
}

export interface LharDocument {
  lhar: { version: string; creator: LharCreator; sessions: LharSession[]; entries: LharEntry[] };
}

/** What the export knows of each call's body besides its anatomy. */
export interface LharBody {
  /** The provider payload the proxy captured, when it did. */
  payload?: unknown;
  /** Size of the request body in bytes, as recorded. */
  requestBytes: number;
}

export interface LharInput {
  sessionId: string;
  createdAt: number;
  calls: readonly CallAnatomy[];
  bodies: ReadonlyMap<number, LharBody>;
  creator: LharCreator;
}

/** The tool name Context Lens gives pi's agents. */
const TOOL = "pi";

function hex(value: string, length: number): string {
  const digits = value.toLowerCase().replace(/[^0-9a-f]/g, "");
  return (digits + "0".repeat(length)).slice(0, length);
}

const finite = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function composition(call: CallAnatomy): LharCompositionEntry[] {
  const totals = call.totals;
  if (!totals || totals.total <= 0) return [];
  const merged = new Map<LharCategory, { tokens: number; count: number }>();
  for (const category of totals.categories) {
    const key = LHAR_CATEGORY[category.category];
    const entry = merged.get(key) ?? { tokens: 0, count: 0 };
    entry.tokens += category.tokens;
    entry.count += category.blocks;
    merged.set(key, entry);
  }
  return [...merged.entries()]
    .map(([category, { tokens, count }]) => ({
      category,
      tokens,
      pct: Math.round((tokens / totals.total) * 1000) / 10,
      count,
    }))
    .sort((a, b) => b.tokens - a.tokens);
}

function mostUsedModel(calls: readonly CallAnatomy[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.call.modelId, (counts.get(call.call.modelId) ?? 0) + 1);
  let best = "";
  let most = 0;
  for (const [model, count] of counts) if (count > most) [best, most] = [model, count];
  return best;
}

function entryOf(input: LharInput, call: CallAnatomy, previous: CallAnatomy | undefined): LharEntry {
  const { usage } = call.call.outcome;
  const categoryTokens = (name: "system" | "tools") =>
    call.totals?.categories.find((category) => category.category === name)?.tokens ?? 0;
  const contextTokens = call.contextTokens ?? 0;
  const systemTokens = categoryTokens("system");
  const toolsTokens = categoryTokens("tools");
  const added =
    previous?.contextTokens !== undefined && call.contextTokens !== undefined
      ? call.contextTokens - previous.contextTokens
      : null;
  const body = input.bodies.get(call.seq);
  const timing = call.call.timing;
  const firstToken = finite(timing.firstTokenMs);
  const duration = finite(timing.durationMs) ?? 0;
  const failed = call.call.outcome.stopReason === "error";
  const maxTokens = finite(call.call.options.maxTokens);
  const temperature = finite(call.call.options.temperature);
  return {
    type: "entry",
    id: call.call.id,
    trace_id: hex(input.sessionId, 32),
    span_id: hex(call.call.id, 16),
    parent_span_id: null,
    timestamp: new Date(call.call.startedAt).toISOString(),
    sequence: call.seq + 1,
    source: {
      tool: TOOL,
      tool_version: null,
      agent_role: "main",
      collector: input.creator.name,
      collector_version: input.creator.version,
    },
    gen_ai: {
      system: call.call.provider,
      request: {
        model: call.call.modelId,
        max_tokens: maxTokens,
        temperature,
        top_p: null,
        stop_sequences: [],
      },
      response: { model: null, finish_reasons: [call.call.outcome.stopReason] },
      usage: {
        input_tokens: usage.input || 0,
        output_tokens: usage.output || 0,
        total_tokens: (usage.input || 0) + (usage.output || 0),
      },
    },
    usage_ext: {
      cache_read_tokens: usage.cacheRead || 0,
      cache_write_tokens: usage.cacheWrite || 0,
      cost_usd: finite(usage.cost?.total),
    },
    http: {
      method: "POST",
      url: null,
      status_code: failed ? null : 200,
      api_format: call.call.api,
      stream: true,
      request_headers: {},
      response_headers: {},
    },
    timings: {
      send_ms: 0,
      wait_ms: firstToken ?? duration,
      receive_ms: firstToken === null ? 0 : Math.max(0, duration - firstToken),
      total_ms: duration,
      tokens_per_second: finite(timing.outputTokensPerSecond),
    },
    transfer: { request_bytes: body?.requestBytes ?? 0, response_bytes: 0, compressed: false },
    context_lens: {
      window_size: call.window ?? 0,
      utilization: call.window && call.contextTokens !== undefined ? call.contextTokens / call.window : 0,
      system_tokens: systemTokens,
      tools_tokens: toolsTokens,
      messages_tokens: Math.max(0, contextTokens - systemTokens - toolsTokens),
      composition: composition(call),
      growth: {
        tokens_added_this_turn: added,
        cumulative_tokens: contextTokens,
        compaction_detected: added !== null && added < 0,
      },
      security: { alerts: [], summary: { high: 0, medium: 0, info: 0 } },
    },
    raw: { request_body: isPlainObject(body?.payload) ? body.payload : null, response_body: null },
  };
}

/** The wrapped form (`.lhar.json`), the one Context Lens takes as an upload. */
export function toLhar(input: LharInput): LharDocument {
  const entries = input.calls.map((call, index) => entryOf(input, call, input.calls[index - 1]));
  const first = input.calls[0]?.call.startedAt ?? input.createdAt;
  return {
    lhar: {
      version: LHAR_VERSION,
      creator: input.creator,
      sessions: [
        {
          trace_id: hex(input.sessionId, 32),
          started_at: new Date(first).toISOString(),
          tool: TOOL,
          model: mostUsedModel(input.calls),
        },
      ],
      entries,
    },
  };
}

/** The line form (`.lhar`): a session line, then one line per call. */
export function toLharLines(document: LharDocument): string {
  const lines = [
    ...document.lhar.sessions.map((session) => JSON.stringify({ type: "session", ...session })),
    ...document.lhar.entries.map((entry) => JSON.stringify(entry)),
  ];
  return `${lines.join("\n")}\n`;
}
