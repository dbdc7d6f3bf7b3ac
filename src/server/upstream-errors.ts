/**
 * Turn a provider adapter's error text into a sentence a person can act on. The adapters report
 * failures in many shapes ("401 Incorrect API key", "Connection error.: getaddrinfo ENOTFOUND ...");
 * the playground shows them in the chat, so lead with what happened and keep the original detail.
 */
export function describeUpstreamError(
  message: string | undefined,
  provider: string,
  baseUrl: string,
): string {
  const detail = (message ?? "").trim() || "no details given";
  const status = /^(?:Error:\s*)?(\d{3})\b[\s:-]*(.*)$/s.exec(detail);
  if (status?.[1]) {
    const code = Number(status[1]);
    if (code >= 400 && code < 600)
      return `Provider returned ${code}: ${status[2]?.trim() || "no details given"}`;
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(detail)) {
    return `Could not resolve the host of ${provider} (${baseUrl}): ${detail}`;
  }
  if (/ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|Connection error|fetch failed|terminated/i.test(detail)) {
    return `Could not reach ${provider} at ${baseUrl}, or the connection broke: ${detail}`;
  }
  return detail;
}
