import { readJson, type ProbeResult, type ConnectionProblem, PROBE_TIMEOUT_MS } from "./probe.ts";
import type { ProxySettings } from "./proxy-settings.ts";
import { API_ROUTES, apiUrl } from "../../shared/api-routes.ts";

/**
 * What the page needs only for a proxy on another origin, loaded when the person has one: checking the
 * settings they typed, and asking that proxy whether it accepts this page and its token.
 */
export { checkProxySettings } from "./settings-check.ts";

/**
 * Can this page use the proxy at `settings.url` with its token? A proxy that refuses the page's origin
 * sends no CORS grant, so the browser reports only a failed fetch, just as for a proxy that is not
 * running. A second request in `no-cors` mode tells them apart: it succeeds (opaquely) whenever
 * anything answered at all.
 */
export async function probeRemote(
  settings: ProxySettings,
  pageOrigin: string,
  fetchImpl: typeof fetch,
): Promise<ProbeResult> {
  const where = settings.url;
  let response: Response;
  try {
    response = await fetchImpl(apiUrl(where, "session"), {
      headers: { Accept: "application/json", Authorization: `Bearer ${settings.token}` },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, problem: await whyUnanswered(where, pageOrigin, fetchImpl) };
  }
  const body = await readJson(response);
  // The proxy took the token: a standalone proxy answers /api/session only to the right one, and hands
  // the token itself to nobody.
  if (response.ok && typeof body?.maxBodyBytes === "number") return { ok: true, token: settings.token };
  const said = typeof body?.error === "string" ? body.error : undefined;
  if (response.status === 401) {
    return {
      ok: false,
      problem: {
        kind: "bad-token",
        message: `The proxy at ${where} refused the token. ${said ?? "Paste the token it printed when it started."}`,
      },
    };
  }
  if (said !== undefined) {
    return {
      ok: false,
      problem: { kind: "refused", message: `The proxy at ${where} refused this page: ${said}` },
    };
  }
  return {
    ok: false,
    problem: {
      kind: "not-a-proxy",
      message: `${where} answered ${response.status} to ${API_ROUTES.session.path}: it is not a pi playground proxy. Check the address (the proxy prints it when it starts).`,
    },
  };
}

async function whyUnanswered(
  where: string,
  pageOrigin: string,
  fetchImpl: typeof fetch,
): Promise<ConnectionProblem> {
  try {
    await fetchImpl(apiUrl(where, "session"), {
      mode: "no-cors",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return {
      kind: "unreachable",
      message: `Nothing answers at ${where}. Start the proxy there (npm run proxy), or check the address.`,
    };
  }
  return {
    kind: "refused-origin",
    message: `Something answers at ${where} but does not let this page's origin (${pageOrigin}) in. If it is the playground proxy, restart it with ALLOWED_ORIGINS=${pageOrigin} (comma-separate several origins); otherwise check the address.`,
  };
}
