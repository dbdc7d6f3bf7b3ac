/**
 * The providers people use most: the environment variable each one's key is read from, and the host its
 * requests go to (pi-ai's built-in base URL; a test checks them against pi-ai's providers). The proxy names
 * the variable in its error messages; "As code" puts a key into a request only when the request goes to
 * the host that key belongs to, so a call record from someone else's file cannot send a key elsewhere.
 */
export const PROVIDER_KEYS: Readonly<Record<string, { variable: string; host: string }>> = {
  anthropic: { variable: "ANTHROPIC_API_KEY", host: "api.anthropic.com" },
  openai: { variable: "OPENAI_API_KEY", host: "api.openai.com" },
  google: { variable: "GEMINI_API_KEY", host: "generativelanguage.googleapis.com" },
  openrouter: { variable: "OPENROUTER_API_KEY", host: "openrouter.ai" },
  mistral: { variable: "MISTRAL_API_KEY", host: "api.mistral.ai" },
  groq: { variable: "GROQ_API_KEY", host: "api.groq.com" },
  xai: { variable: "XAI_API_KEY", host: "api.x.ai" },
  deepseek: { variable: "DEEPSEEK_API_KEY", host: "api.deepseek.com" },
  cerebras: { variable: "CEREBRAS_API_KEY", host: "api.cerebras.ai" },
  together: { variable: "TOGETHER_API_KEY", host: "api.together.ai" },
  fireworks: { variable: "FIREWORKS_API_KEY", host: "api.fireworks.ai" },
};

/** The key of a local OpenAI-compatible server (LOCAL_OPENAI_BASE_URL), which lives on this machine. */
export const LOCAL_KEY_VARIABLE = "LOCAL_OPENAI_API_KEY";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether a request to `url` may carry the key in `variable`: only to the host that key is for. */
export function keyBelongsTo(variable: string, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (variable === LOCAL_KEY_VARIABLE) return LOOPBACK_HOSTS.has(parsed.hostname);
  if (parsed.protocol !== "https:") return false;
  return Object.values(PROVIDER_KEYS).some(
    (entry) => entry.variable === variable && entry.host === parsed.hostname,
  );
}
