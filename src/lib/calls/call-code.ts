import type { Message } from "@earendil-works/pi-ai";
import type { CallRecord, ProviderEndpoint } from "../storage/records.ts";
import { apiUrl } from "../../shared/api-routes.ts";

export type { ProviderEndpoint };

export interface CallCode {
  curl: string;
  typescript: string | undefined;
  /** What the curl command talks to: the provider itself, or the playground's proxy. */
  target: "provider" | "proxy";
}

const OFFLINE_PROVIDERS = new Set(["mirror"]);

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A heredoc whose quoted delimiter keeps the shell from touching the JSON; the delimiter cannot occur in it. */
function heredoc(json: string): string {
  return `--data-binary @- <<'JSON'\n${json}\nJSON`;
}

/**
 * The call as code that makes it again. With the provider's payload and endpoint (a real provider, its
 * payload captured by the proxy) the curl command sends that very body to the provider, the key as an
 * environment variable; otherwise it sends the request to the playground's proxy as the page did. The
 * TypeScript makes the call with pi-ai, for the built-in providers.
 */
export function callAsCode(
  call: CallRecord,
  messages: readonly Message[],
  where: { proxyUrl: string; endpoint?: ProviderEndpoint; payload?: unknown },
): CallCode {
  // Double quotes, so the shell puts in the `$KEY` placeholders from the environment.
  const headers = (entries: [string, string][]) => entries.map(([name, value]) => `  -H "${name}: ${value}"`);
  let curl: string;
  let target: CallCode["target"];
  if (where.endpoint && where.payload !== undefined) {
    target = "provider";
    curl = [
      `curl -N ${shellQuote(where.endpoint.url)} \\`,
      ...headers(Object.entries(where.endpoint.headers)).map((line) => `${line} \\`),
      `  -H "Content-Type: application/json" \\`,
      `  ${heredoc(JSON.stringify(where.payload, null, 2))}`,
    ].join("\n");
  } else {
    target = "proxy";
    const body = {
      model: { provider: call.provider, id: call.modelId },
      context: { messages },
      options: call.options,
    };
    curl = [
      "# The playground's proxy: set PI_PLAYGROUND_TOKEN to the token it printed at start (or PROXY_TOKEN).",
      `curl -N ${shellQuote(apiUrl(where.proxyUrl.replace(/\/$/, ""), "stream"))} \\`,
      `  -H "Authorization: Bearer $PI_PLAYGROUND_TOKEN" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  ${heredoc(JSON.stringify(body, null, 2))}`,
    ].join("\n");
  }
  const typescript = OFFLINE_PROVIDERS.has(call.provider)
    ? undefined
    : [
        `// Call #${call.seq + 1} again with pi-ai: ${call.provider}/${call.modelId}, ${messages.length} messages.`,
        `import { createModels, type Message, type SimpleStreamOptions } from "@earendil-works/pi-ai";`,
        `import { builtinProviders } from "@earendil-works/pi-ai/providers/all";`,
        ``,
        `// Each provider reads its key from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, …).`,
        `const models = createModels();`,
        `for (const provider of builtinProviders()) models.setProvider(provider);`,
        `const model = models.getModel(${JSON.stringify(call.provider)}, ${JSON.stringify(call.modelId)});`,
        `if (!model) throw new Error("${call.provider}/${call.modelId} is not a built-in model of this pi-ai");`,
        `const messages: Message[] = ${JSON.stringify(messages, null, 2)};`,
        `const options: SimpleStreamOptions = ${JSON.stringify(call.options, null, 2)};`,
        `const reply = await models.streamSimple(model, { messages }, options).result();`,
        `console.log(reply.stopReason, reply.content);`,
      ].join("\n");
  return { curl, typescript, target };
}
