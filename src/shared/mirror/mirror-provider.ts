import {
  createAssistantMessageEventStream,
  createFauxCore,
  createProvider,
  fauxAssistantMessage,
  normalizeContext,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type FauxModelDefinition,
  type Message,
  type Model,
  type Provider,
  type ProviderStreams,
  type SimpleStreamOptions,
  type TranscriptContext,
  type Usage,
} from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { isObject } from "../is-object.ts";
import { MIRROR_PROVIDER_ID, MIRROR_UNPACED_ID } from "./mirror-id.ts";
import { mirrorReply, type MirrorBlock } from "./mirror-reply.ts";
import { MIRROR_SPEED_FIELD, isMirrorSpeed, type MirrorSpeed } from "./mirror-speed.ts";
const MIRROR_API = "mirror";

/**
 * What the offline models' "provider" receives, in the place of a provider's request body: the model, the
 * messages after pi-ai's provider transform (as every real adapter applies it), and the options that
 * shape the reply. It is what `onPayload` is handed for these models.
 */
export interface MirrorPayload {
  model: string;
  messages: Message[];
  options: Record<string, unknown>;
}

/** The stream options a mirror payload shows: those a request carries, never hooks or signals. */
const PAYLOAD_OPTIONS = [
  "temperature",
  "maxTokens",
  "reasoning",
  "sessionId",
  "cacheRetention",
  "thinkingBudgets",
] as const;

function payloadOptions(options: SimpleStreamOptions | undefined): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of PAYLOAD_OPTIONS) if (options?.[key] !== undefined) picked[key] = options[key];
  return picked;
}

/** A payload `onPayload` handed back in place of ours, when it has the shape the mirror reads. */
function replacedPayload(value: unknown): MirrorPayload | undefined {
  return isObject(value) && typeof value.model === "string" && Array.isArray(value.messages)
    ? (value as unknown as MirrorPayload)
    : undefined;
}

/** ~75 four-character tokens per second: ~300 characters/s, slow enough to watch, fast enough to use. */
const PACED_TOKENS_PER_SECOND = 75;
/** Long replies ("show context" on a big session) stream eight times faster so they end in seconds, not minutes. */
const LONG_REPLY_TOKENS_PER_SECOND = 600;
const LONG_REPLY_CHARS = 1_500;

const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function mirrorModel(id: string, name: string, reasoning: boolean): FauxModelDefinition {
  return {
    id,
    name,
    reasoning,
    input: ["text", "image"],
    cost: FREE,
    contextWindow: 1_000_000,
    maxTokens: 65_536,
  };
}

const PACED_MODELS = [
  mirrorModel("mirror", "Mirror (offline)", false),
  mirrorModel("mirror-thinking", "Mirror with thinking (offline)", true),
];

/** Same answers without pacing: for quick checks and for measuring the proxy itself. */
const INSTANT_MODELS = [mirrorModel(MIRROR_UNPACED_ID, "Mirror, unpaced (offline)", false)];

/**
 * The offline models, built on pi-ai's faux provider. Every request computes its reply from the context it
 * received, queues it and starts its stream in the same synchronous step, so concurrent requests cannot
 * take each other's reply.
 * Token size is fixed at one token (four characters) so the chunking, and therefore the stream, is
 * deterministic.
 */
export function createMirrorProvider(): Provider {
  const fauxCore = (models: FauxModelDefinition[], tokensPerSecond?: number, tokenSize = 1) =>
    createFauxCore({
      api: MIRROR_API,
      provider: MIRROR_PROVIDER_ID,
      models,
      tokenSize: { min: tokenSize, max: tokenSize },
      ...(tokensPerSecond ? { tokensPerSecond } : {}),
    });
  const paced = fauxCore(PACED_MODELS, PACED_TOKENS_PER_SECOND);
  const fast = fauxCore(PACED_MODELS, LONG_REPLY_TOKENS_PER_SECOND);
  const instant = fauxCore(INSTANT_MODELS);
  // A faux core streams at one pace: one per speed a person chose, made when first asked for.
  const chosen = new Map<MirrorSpeed, ReturnType<typeof fauxCore>>();
  const atSpeed = (speed: MirrorSpeed) => {
    let core = chosen.get(speed);
    if (!core) {
      core = fauxCore(PACED_MODELS, speed);
      chosen.set(speed, core);
    }
    return core;
  };

  // One simulated prompt cache for every pace. A faux core paces at the one speed it was made with and keeps
  // its own cache, so with a core per pace a session's cache began anew whenever the pace changed (another
  // speed chosen, or a long reply going to the faster core) and its cached-token figures jumped with no change
  // to the context. Every reply's usage is therefore worked out by this one unpaced core, with the same
  // estimate, and replaces the pacing core's. It streams each block as one chunk: it is only counting.
  const ledger = fauxCore([...PACED_MODELS, ...INSTANT_MODELS], undefined, LEDGER_TOKEN_SIZE);
  const usageOf = async (
    message: AssistantMessage,
    model: Model<string>,
    context: TranscriptContext,
    options: SimpleStreamOptions | undefined,
  ): Promise<Usage> => {
    ledger.appendResponses([message]);
    const counted = await ledger
      .streamSimple(model, context, {
        ...(options?.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        ...(options?.cacheRetention === undefined ? {} : { cacheRetention: options.cacheRetention }),
      })
      .result();
    return counted.usage;
  };

  const streams: ProviderStreams = {
    streamSimple(model, context, options) {
      // As a real adapter does before it builds its body: errored and aborted replies are dropped,
      // tool calls left without a result get one. The mirror then counts and quotes what remains.
      const payload: MirrorPayload = {
        model: model.id,
        messages: transformMessages(context.messages, model),
        options: payloadOptions(options),
      };
      const thinking = model.reasoning && options?.reasoning !== undefined;
      const turn = mirrorReply(payload.messages, { thinking });
      // A chosen speed paces every reply, long ones too: the person asked to watch it at that pace.
      const speed = options?.metadata?.[MIRROR_SPEED_FIELD];
      const core = INSTANT_MODELS.some((candidate) => candidate.id === model.id)
        ? instant
        : isMirrorSpeed(speed)
          ? atSpeed(speed)
          : replyLength(turn.content) > LONG_REPLY_CHARS
            ? fast
            : paced;
      const onPayload = options?.onPayload;
      const normalized = normalizeContext({ messages: payload.messages });
      let usage: Usage | undefined;
      core.appendResponses([
        async () => {
          // Handed over and awaited just before the reply "is requested", as adapters do; a hook that
          // aborts the request's signal (a preview) stops it here: the faux stream then ends aborted.
          const replaced = onPayload ? replacedPayload(await onPayload(payload, model)) : undefined;
          const answer = replaced ? mirrorReply(replaced.messages, { thinking }) : turn;
          const message = fauxAssistantMessage(answer.content, { stopReason: answer.stopReason });
          usage = await usageOf(message, model, normalized, options);
          return message;
        },
      ]);
      return withUsage(core.streamSimple(model, normalized, options), () => usage);
    },
    stream(model, context, options) {
      return streams.streamSimple(model, context, options);
    },
  };

  return createProvider({
    id: MIRROR_PROVIDER_ID,
    name: "Offline mirror",
    auth: { apiKey: { name: "Offline mirror (no key needed)", resolve: async () => ({ auth: {} }) } },
    models: [...paced.models, ...instant.models],
    api: streams,
  });
}

/** Large enough that the ledger streams every block as one chunk. */
const LEDGER_TOKEN_SIZE = 2 ** 40;

/**
 * The same stream, its events passed on as they come, with the final message's usage replaced by the one
 * `usage()` gives (when it gives one).
 */
function withUsage(
  source: AssistantMessageEventStream,
  usage: () => Usage | undefined,
): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  const counted = (message: AssistantMessage): AssistantMessage => {
    const replacement = usage();
    return replacement ? { ...message, usage: replacement } : message;
  };
  void (async () => {
    for await (const event of source) {
      if (event.type === "done") {
        const message = counted(event.message);
        stream.push({ ...event, message });
        stream.end(message);
        return;
      }
      if (event.type === "error") {
        const error = counted(event.error);
        stream.push({ ...event, error });
        stream.end(error);
        return;
      }
      stream.push(event);
    }
    stream.end();
  })();
  return stream;
}

function replyLength(blocks: readonly MirrorBlock[]): number {
  let length = 0;
  for (const block of blocks) {
    if (block.type === "text") length += block.text.length;
    else if (block.type === "thinking") length += block.thinking.length;
  }
  return length;
}
