import {
  createFauxCore,
  createProvider,
  fauxAssistantMessage,
  type FauxModelDefinition,
  type Provider,
  type ProviderStreams,
} from "@earendil-works/pi-ai";
import { MIRROR_PROVIDER_ID, MIRROR_UNPACED_ID } from "./mirror-id.ts";
import { mirrorReply, type MirrorBlock } from "./mirror-reply.ts";
import { MIRROR_SPEED_FIELD, isMirrorSpeed, type MirrorSpeed } from "./mirror-speed.ts";
const MIRROR_API = "mirror";

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
  const fauxCore = (models: FauxModelDefinition[], tokensPerSecond?: number) =>
    createFauxCore({
      api: MIRROR_API,
      provider: MIRROR_PROVIDER_ID,
      models,
      tokenSize: { min: 1, max: 1 },
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

  const streams: ProviderStreams = {
    streamSimple(model, context, options) {
      const turn = mirrorReply(context.messages, {
        thinking: model.reasoning && options?.reasoning !== undefined,
      });
      // A chosen speed paces every reply, long ones too: the person asked to watch it at that pace.
      const speed = options?.metadata?.[MIRROR_SPEED_FIELD];
      const core = INSTANT_MODELS.some((candidate) => candidate.id === model.id)
        ? instant
        : isMirrorSpeed(speed)
          ? atSpeed(speed)
          : replyLength(turn.content) > LONG_REPLY_CHARS
            ? fast
            : paced;
      core.appendResponses([() => fauxAssistantMessage(turn.content, { stopReason: turn.stopReason })]);
      return core.streamSimple(model, context, options);
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

function replyLength(blocks: readonly MirrorBlock[]): number {
  let length = 0;
  for (const block of blocks) {
    if (block.type === "text") length += block.text.length;
    else if (block.type === "thinking") length += block.thinking.length;
  }
  return length;
}
