import type { Message } from "@earendil-works/pi-ai";
import type { CallRecord, ProviderEndpoint } from "../storage/records.ts";
import { apiUrl } from "../../shared/api-routes.ts";
import { keyBelongsTo } from "../../shared/provider-keys.ts";
import {
  commentText,
  isHeaderName,
  isHeaderValue,
  isWebUrl,
  shellQuote,
  tsString,
  tsValue,
} from "./code-literals.ts";

export type { ProviderEndpoint };

export interface CallCode {
  curl: string;
  typescript: string | undefined;
  /** What the curl command talks to: the provider itself, or the playground's proxy. */
  target: "provider" | "proxy";
}

/** The proxy the page uses: its own server (`npm start`, `npm run dev`) or one it connected to. */
export interface ProxyInUse {
  url: string;
  kind: "own" | "remote";
}

export interface CodeSources {
  /** The proxy in use now; undefined when the offline models answer in the page. */
  proxy: ProxyInUse | undefined;
  endpoint?: ProviderEndpoint;
  payload?: unknown;
}

const OFFLINE_PROVIDERS = new Set(["mirror"]);

/** Where `npm start` serves the page and its proxy unless told otherwise. */
const DEFAULT_SERVER_URL = "http://127.0.0.1:4173";

/** A header whose value is a key taken from the environment, as the proxy describes it: `$VAR` or `Bearer $VAR`. */
const KEY_PLACEHOLDER = /^((?:[A-Za-z]+ )?)\$([A-Z_][A-Z0-9_]*)$/;

/** A heredoc whose quoted delimiter keeps the shell from touching the JSON; the delimiter cannot occur in it. */
function heredoc(json: string): string {
  // Pretty-printed JSON has no line that is a bare word, so no line of it can be `JSON`.
  return `--data-binary @- <<'JSON'\n${json}\nJSON`;
}

/**
 * The `-H` arguments and comment lines for the endpoint's headers. A key placeholder becomes a double-quoted
 * `"$VAR"` after the single-quoted rest, so the shell puts in the key from the environment, but only when
 * the request goes to the host that key belongs to; everything else is single-quoted and taken literally. A
 * header that cannot be sent as one, or a key bound for another host, is left out and the comment says so.
 */
function headerLines(endpoint: ProviderEndpoint): { headers: string[]; comments: string[]; keys: string[] } {
  const headers: string[] = [];
  const comments: string[] = [];
  const keys: string[] = [];
  const host = new URL(endpoint.url).host;
  for (const [name, value] of Object.entries(endpoint.headers)) {
    if (!isHeaderName(name) || typeof value !== "string" || !isHeaderValue(value)) {
      comments.push(`# Left out a header that cannot be sent as one: ${commentText(JSON.stringify(name))}`);
      continue;
    }
    const placeholder = KEY_PLACEHOLDER.exec(value);
    const variable = placeholder?.[2];
    if (placeholder && variable) {
      if (!keyBelongsTo(variable, endpoint.url)) {
        comments.push(
          `# Left out ${commentText(name)}: it would send $${variable} to ${commentText(host)}, which is not where that key goes.`,
        );
        continue;
      }
      keys.push(variable);
      headers.push(`-H ${shellQuote(`${name}: ${placeholder[1] ?? ""}`)}"$${variable}"`);
      continue;
    }
    headers.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  return { headers, comments, keys };
}

function providerCurl(endpoint: ProviderEndpoint, payload: unknown): string {
  const { headers, comments, keys } = headerLines(endpoint);
  if (keys.length > 0)
    comments.unshift(`# The key comes from your environment: set ${keys.join(", ")} first.`);
  return [
    ...comments,
    `curl -N ${shellQuote(endpoint.url)} \\`,
    ...headers.map((header) => `  ${header} \\`),
    `  -H 'Content-Type: application/json' \\`,
    `  ${heredoc(JSON.stringify(payload, null, 2))}`,
  ].join("\n");
}

/** How to get the token of the proxy in use, as comment lines and, for the page's own server, a command. */
function tokenInstructions(proxy: ProxyInUse | undefined, base: string): string[] {
  if (proxy?.kind === "remote") {
    return [
      `# Through the playground proxy at ${commentText(base)} (npm run proxy): set PI_PLAYGROUND_TOKEN to the`,
      "# token it printed at start, or to its PROXY_TOKEN; the page knows it because you pasted it there.",
    ];
  }
  const where = proxy
    ? `the playground's own server at ${commentText(base)}`
    : `npm start (${DEFAULT_SERVER_URL} unless you changed it): this page has no proxy, the offline model answered in the page`;
  return [
    `# Through ${where}.`,
    "# Its token changes at every start (unless it was started with PROXY_TOKEN); it hands it out here:",
    `PI_PLAYGROUND_TOKEN=$(curl -s ${shellQuote(apiUrl(base, "session"))} | sed -E 's/.*"token":"([^"]*)".*/\\1/')`,
  ];
}

function proxyCurl(call: CallRecord, messages: readonly Message[], proxy: ProxyInUse | undefined): string {
  const url = proxy && isWebUrl(proxy.url) ? proxy.url : DEFAULT_SERVER_URL;
  const base = url.replace(/\/+$/, "");
  const body = {
    model: { provider: call.provider, id: call.modelId },
    context: { messages },
    options: call.options,
  };
  return [
    ...tokenInstructions(proxy && isWebUrl(proxy.url) ? proxy : undefined, base),
    `curl -N ${shellQuote(apiUrl(base, "stream"))} \\`,
    `  -H "Authorization: Bearer $PI_PLAYGROUND_TOKEN" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  ${heredoc(JSON.stringify(body, null, 2))}`,
  ].join("\n");
}

function typescriptCode(call: CallRecord, messages: readonly Message[]): string {
  const name = `${call.provider}/${call.modelId}`;
  return [
    `// Call #${commentText(String(Number(call.seq) + 1))} again with pi-ai: ${commentText(name)}, ${messages.length} messages.`,
    `import { createModels, type Message, type SimpleStreamOptions } from "@earendil-works/pi-ai";`,
    `import { builtinProviders } from "@earendil-works/pi-ai/providers/all";`,
    ``,
    `// Each provider reads its key from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, …).`,
    `const models = createModels();`,
    `for (const provider of builtinProviders()) models.setProvider(provider);`,
    `const model = models.getModel(${tsString(call.provider)}, ${tsString(call.modelId)});`,
    `if (!model) throw new Error(${tsString(`${name} is not a built-in model of this pi-ai`)});`,
    `const messages: Message[] = ${tsValue(messages)};`,
    `const options: SimpleStreamOptions = ${tsValue(call.options)};`,
    `const reply = await models.streamSimple(model, { messages }, options).result();`,
    `console.log(reply.stopReason, reply.content);`,
  ].join("\n");
}

/**
 * The call as code that makes it again. With the provider's payload and endpoint (a real provider, its
 * payload captured by the proxy) the curl command sends that very body to the provider, the key as an
 * environment variable; otherwise it sends the request to the playground's proxy as the page did. The
 * TypeScript makes the call with pi-ai, for the built-in providers. Every value from the call is encoded
 * for the language it lands in (see code-literals.ts): a shared session cannot put code in a snippet.
 */
export function callAsCode(call: CallRecord, messages: readonly Message[], where: CodeSources): CallCode {
  const toProvider =
    where.endpoint !== undefined && where.payload !== undefined && isWebUrl(where.endpoint.url);
  return {
    curl:
      toProvider && where.endpoint
        ? providerCurl(where.endpoint, where.payload)
        : proxyCurl(call, messages, where.proxy),
    typescript: OFFLINE_PROVIDERS.has(call.provider) ? undefined : typescriptCode(call, messages),
    target: toProvider ? "provider" : "proxy",
  };
}
