import type { Api, Message, Model, StreamFunction, StreamOptions } from "@earendil-works/pi-ai";
import { stream as anthropicMessages } from "@earendil-works/pi-ai/api/anthropic-messages";
import { stream as azureOpenAIResponses } from "@earendil-works/pi-ai/api/azure-openai-responses";
import { stream as bedrockConverseStream } from "@earendil-works/pi-ai/api/bedrock-converse-stream";
import { stream as googleGenerativeAi } from "@earendil-works/pi-ai/api/google-generative-ai";
import { stream as mistralConversations } from "@earendil-works/pi-ai/api/mistral-conversations";
import { stream as openAICodexResponses } from "@earendil-works/pi-ai/api/openai-codex-responses";
import { stream as openAICompletions } from "@earendil-works/pi-ai/api/openai-completions";
import { stream as openAIResponses } from "@earendil-works/pi-ai/api/openai-responses";
import { describe, expect, it } from "vitest";
import { capturePayload, type AnyStreamFunction } from "./capture-payload.test-support.ts";
import { AT, replyOf, richSession, SIGNATURE, TEXT, testModel } from "./provider-fixtures.test-support.ts";
import type { ProviderView } from "./provider-changes.ts";
import { providerView } from "./provider-view.ts";
import {
  readAnthropic,
  readBedrock,
  readGoogle,
  readMistral,
  readOpenAICompletions,
  readResponses,
  responsesTurnsOfView,
  turnsOfView,
  type Turn,
} from "./provider-wire.test-support.ts";

// ---------------------------------------------------------------------------------------------------------
// Conformance: the provider view against the request bodies pi-ai's real adapters build. Each adapter is
// called with the rich session of provider-fixtures.test-support.ts; `onPayload` (awaited before the
// request is made) keeps a copy of the body and aborts, so nothing is sent. The body is read back into one
// turn per message of the list the adapter converted (the readers of provider-wire.test-support.ts, one per
// wire format), and compared with the provider view.
// ---------------------------------------------------------------------------------------------------------

interface AdapterCase {
  name: string;
  model: Model<Api>;
  stream: AnyStreamFunction;
  read: (body: unknown) => Turn[];
  expected?: (messages: readonly Message[]) => Turn[];
  /** How many tool-call ids this target rewrites in the session: proof that its rule was exercised. */
  rewrites: number;
}

const adapter = <TApi extends Api>(stream: StreamFunction<TApi, StreamOptions>) =>
  stream as AnyStreamFunction;
const inPlace = { compat: { supportsMidConvoSystemMessages: true } };

const ADAPTERS: AdapterCase[] = [
  {
    name: "anthropic-messages",
    model: testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5"),
    stream: adapter(anthropicMessages),
    read: readAnthropic,
    rewrites: 8,
  },
  {
    name: "anthropic-messages, system messages in place",
    model: testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5", inPlace),
    stream: adapter(anthropicMessages),
    read: readAnthropic,
    rewrites: 8,
  },
  {
    name: "openai-completions",
    model: testModel("openai-completions", "groq", "llama-3.3-70b-versatile"),
    stream: adapter(openAICompletions),
    read: readOpenAICompletions,
    rewrites: 4,
  },
  {
    name: "openai-completions on OpenAI's own endpoint",
    model: testModel("openai-completions", "openai", "gpt-4o-mini"),
    stream: adapter(openAICompletions),
    read: readOpenAICompletions,
    rewrites: 6,
  },
  {
    name: "openai-completions, system messages in place",
    model: testModel("openai-completions", "groq", "llama-3.3-70b-versatile", inPlace),
    stream: adapter(openAICompletions),
    read: readOpenAICompletions,
    rewrites: 4,
  },
  {
    name: "google-generative-ai, Gemini 3 (ids on the wire)",
    model: testModel("google-generative-ai", "google", "gemini-3-flash-preview"),
    stream: adapter(googleGenerativeAi),
    read: readGoogle,
    rewrites: 8,
  },
  {
    name: "openai-responses, an OpenAI model",
    model: testModel("openai-responses", "openai", "gpt-4o"),
    stream: adapter(openAIResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "openai-responses, a gateway that does not pair item ids",
    model: testModel("openai-responses", "cloudflare-ai-gateway", "gpt-4o"),
    stream: adapter(openAIResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "azure-openai-responses",
    model: testModel("azure-openai-responses", "azure", "gpt-4o"),
    stream: adapter(azureOpenAIResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "openai-codex-responses",
    model: testModel("openai-codex-responses", "openai-codex", "gpt-5.5"),
    stream: adapter(openAICodexResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "mistral-conversations",
    model: testModel("mistral-conversations", "mistral", "mistral-large-latest"),
    stream: adapter(mistralConversations),
    read: readMistral,
    rewrites: 10,
  },
  {
    name: "bedrock-converse-stream",
    model: testModel("bedrock-converse-stream", "amazon-bedrock", "anthropic.claude-sonnet-4-5", {
      baseUrl: "http://127.0.0.1:9",
    }),
    stream: adapter(bedrockConverseStream),
    read: readBedrock,
    rewrites: 8,
  },
];

const countRewrites = (view: ProviderView): number =>
  view.modelChanges
    .flat()
    .filter((change) => change.kind === "tool-call-id-rewritten" && change.from !== change.to).length;

describe("the provider view is what pi-ai's adapters send", () => {
  for (const target of ADAPTERS) {
    it(target.name, async () => {
      const session = richSession(target.model);
      const view = providerView(session, target.model);
      const body = await capturePayload(target.stream, target.model, session);

      // Message for message: roles in order, tool-call ids, text, images and thinking.
      expect(target.read(body)).toEqual((target.expected ?? turnsOfView)(view.messages));

      // The rules the view reports are on the wire: nothing of the dropped replies, of another model's
      // thinking or signatures, or of the image; the placeholder result is there.
      const wire = JSON.stringify(body);
      for (const gone of [
        TEXT.aborted,
        TEXT.errored,
        TEXT.foreignThinking,
        ...Object.values(SIGNATURE),
        "AAAA",
      ]) {
        expect(wire).not.toContain(gone);
      }
      expect(wire).toContain("No result provided");
      expect(view.modelChanges[AT.aborted]).toEqual([{ kind: "dropped", reason: "aborted" }]);
      expect(view.modelChanges[AT.errored]).toEqual([{ kind: "dropped", reason: "error" }]);
      expect(countRewrites(view)).toBe(target.rewrites);
    });
  }

  it("openai-responses: an item id from the same provider through another API counts as foreign", async () => {
    const gpt = testModel("openai-responses", "openai", "gpt-4o");
    const viaCompletions = { api: "openai-completions", provider: "openai", model: "gpt-4o" } as const;
    const call = { type: "toolCall", id: "call_q|item+1", name: "get_time", arguments: {} } as const;
    const messages: Message[] = [
      { role: "user", content: "Time?", timestamp: 1 },
      { ...replyOf(gpt, [call], 2), ...viaCompletions },
      { role: "user", content: "Thanks", timestamp: 3 },
    ];
    const view = providerView(messages, gpt);
    const body = await capturePayload(adapter(openAIResponses), gpt, messages);
    expect(readResponses(body)).toEqual(responsesTurnsOfView(view.messages));
    expect(view.modelChanges[1]).toEqual([
      {
        kind: "tool-call-id-rewritten",
        from: "call_q|item+1",
        to: expect.stringMatching(/^call_q\|fc_[a-z0-9]+$/),
      },
    ]);
  });

  it("google-generative-ai, Gemini 2.5: ids are neither rewritten nor sent, calls and results match by name", async () => {
    const gemini = testModel("google-generative-ai", "google", "gemini-2.5-flash");
    const session = richSession(gemini);
    const view = providerView(session, gemini);
    const body = await capturePayload(adapter(googleGenerativeAi), gemini, session);
    const withoutIds = (turns: Turn[]) => turns.map((each) => ({ ...each, ids: each.ids.map(() => "") }));
    expect(readGoogle(body)).toEqual(withoutIds(turnsOfView(view.messages)));
    expect(countRewrites(view)).toBe(0);
    expect(JSON.stringify(body)).not.toContain('"id"');
  });
});
