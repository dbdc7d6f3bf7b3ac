/** The stored session a live pi session is recorded in: one per pi session, whichever pi process runs it. */
export function liveSessionId(header: Record<string, unknown>): string {
  return `pi-${String(header.id)}`;
}
