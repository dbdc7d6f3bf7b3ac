import { isObject } from "../is-object.ts";

/**
 * The speeds a person may choose for the offline models, in tokens (four characters) per second. A fixed
 * list rather than any number: the server decides what it will do, and the slowest still ends a typical
 * reply within a minute, well inside the proxy's idle and stream limits.
 */
export const MIRROR_SPEEDS = [2, 5, 15, 75, 300] as const;
export type MirrorSpeed = (typeof MIRROR_SPEEDS)[number];

/**
 * Where the chosen speed rides in a `/api/stream` request: in the stream options' `metadata`, the one
 * free-form field pi's `streamProxy` sends. The proxy reads it for the offline models only and never
 * forwards metadata to a provider.
 */
export const MIRROR_SPEED_FIELD = "mirrorTokensPerSecond";

export function isMirrorSpeed(value: unknown): value is MirrorSpeed {
  return MIRROR_SPEEDS.some((speed) => speed === value);
}

/**
 * The speed a request's metadata names (none: the default pace), or a sentence saying why it is not one
 * we offer.
 */
export function mirrorSpeedIn(metadata: unknown): { speed?: MirrorSpeed } | { error: string } {
  if (!isObject(metadata) || !(MIRROR_SPEED_FIELD in metadata)) return {};
  const value = metadata[MIRROR_SPEED_FIELD];
  if (isMirrorSpeed(value)) return { speed: value };
  return {
    error: `options.metadata.${MIRROR_SPEED_FIELD} must be one of ${MIRROR_SPEEDS.join(", ")} (tokens per second), not ${JSON.stringify(value) ?? "undefined"}.`,
  };
}

/** The stream options that carry a speed to the mirror provider (nothing for the default pace). */
export function mirrorSpeedOptions(speed: MirrorSpeed | undefined): { metadata?: Record<string, unknown> } {
  return speed === undefined ? {} : { metadata: { [MIRROR_SPEED_FIELD]: speed } };
}
