import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { positiveInt } from "../../shared/positive-int.ts";
import type { ServerEnv } from "../server-env.ts";

/** A pairing token shorter than this is guessable enough to drive someone's pi with. */
const MIN_TOKEN_LENGTH = 16;

/** Limits of the live pi ingest, per connection (one pi session) unless said otherwise. */
export interface LiveLimits {
  /** Largest request a pi may send (one event, or a batch of them). */
  maxEventBytes: number;
  /** Requests per second a pi may send, with bursts of twice as many. */
  maxRequestsPerSecond: number;
  /** What the server keeps of one pi session (entries and recorded calls); past it, the oldest calls go. */
  maxConnectionBytes: number;
  /** Live pi sessions at once. */
  maxConnections: number;
  /** A pi that sends nothing (not even its heartbeat) for this long has gone. */
  idleTimeoutMs: number;
  /** How long a pi session that ended is kept for pages that open later. */
  endedTtlMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  maxEventBytes: 8 * 1024 * 1024,
  maxRequestsPerSecond: 50,
  maxConnectionBytes: 128 * 1024 * 1024,
  maxConnections: 16,
  idleTimeoutMs: 20_000,
  endedTtlMs: 30 * 60 * 1000,
};

export interface LiveConfig {
  /** What a pi's extension must bring (PI_PLAYGROUND_TOKEN, or random per start). */
  token: string;
  tokenFromEnv: boolean;
  /** Accept pi from other machines (LIVE_ALLOW_REMOTE=1); loopback only otherwise. */
  allowRemote: boolean;
  limits: LiveLimits;
  /** The extension's file, for the command the page and the console show. */
  extensionPath: string;
}

/** Read and check the live settings; a bad value throws an Error whose message says what to fix. */
export function liveConfig(env: ServerEnv, cwd = process.cwd()): LiveConfig {
  const chosen = env.PI_PLAYGROUND_TOKEN?.trim();
  if (chosen !== undefined && chosen !== "" && (chosen.length < MIN_TOKEN_LENGTH || /\s/.test(chosen))) {
    throw new Error(
      `PI_PLAYGROUND_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters without spaces; leave it unset for a random token per start.`,
    );
  }
  const limit = (name: string, fallback: number) => positiveInt(env[name]) ?? fallback;
  const defaults = DEFAULT_LIVE_LIMITS;
  const bundled = resolve(cwd, "src/pi-extension/playground.ts");
  return {
    token: chosen || randomBytes(24).toString("base64url"),
    tokenFromEnv: Boolean(chosen),
    allowRemote: env.LIVE_ALLOW_REMOTE === "1" || env.LIVE_ALLOW_REMOTE === "true",
    limits: {
      maxEventBytes: limit("LIVE_MAX_EVENT_BYTES", defaults.maxEventBytes),
      maxRequestsPerSecond: limit("LIVE_MAX_REQUESTS_PER_SECOND", defaults.maxRequestsPerSecond),
      maxConnectionBytes: limit("LIVE_MAX_CONNECTION_BYTES", defaults.maxConnectionBytes),
      maxConnections: limit("LIVE_MAX_CONNECTIONS", defaults.maxConnections),
      idleTimeoutMs: limit("LIVE_IDLE_TIMEOUT_MS", defaults.idleTimeoutMs),
      endedTtlMs: limit("LIVE_ENDED_TTL_MS", defaults.endedTtlMs),
    },
    extensionPath: env.PI_PLAYGROUND_EXTENSION?.trim() || bundled,
  };
}

/** The command that starts pi connected to the playground at `url`; with control when asked. */
export function connectCommand(config: LiveConfig, url: string, { control = false } = {}): string {
  const path = /[\s'"$`\\]/.test(config.extensionPath)
    ? `'${config.extensionPath.replace(/'/g, "'\\''")}'`
    : config.extensionPath;
  return `PI_PLAYGROUND_URL=${url} PI_PLAYGROUND_TOKEN=${config.token}${control ? " PI_PLAYGROUND_CONTROL=1" : ""} pi -e ${path}`;
}
