import { isObject } from "../../shared/is-object.ts";
import { apiUrl } from "../../shared/api-routes.ts";

/** Why no proxy is in use, in words for the person looking at the model picker. */
export interface ConnectionProblem {
  kind: "none" | "unreachable" | "refused-origin" | "refused" | "bad-token" | "not-a-proxy" | "lost";
  message: string;
}

export type ProbeResult = { ok: true; token: string } | { ok: false; problem: ConnectionProblem };

/** A proxy that has not answered in this long is treated as absent; a black-holed address must not hang the page. */
export const PROBE_TIMEOUT_MS = 10_000;

/**
 * Is there a proxy at the page's own address (`npm start`, `npm run dev`)? It hands its token to its own
 * pages. A static host answers with the build's own `api/session` file (public/api/session: no token, so no
 * proxy; being a file that exists, asking costs no "404" in the console on every load), or with 404 or its
 * index page where that file was not deployed: then the offline models run in the page.
 */
export async function probeOwnServer(pageUrl: string, fetchImpl: typeof fetch): Promise<ProbeResult> {
  let response: Response;
  try {
    response = await fetchImpl(apiUrl(pageUrl, "session"), {
      headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, problem: NO_PROXY };
  }
  const body = await readJson(response);
  if (response.ok && typeof body?.token === "string") return { ok: true, token: body.token };
  if (typeof body?.error === "string") {
    return {
      ok: false,
      problem: { kind: "refused", message: `This page's server refused its proxy: ${body.error}` },
    };
  }
  return { ok: false, problem: NO_PROXY };
}

const NO_PROXY: ConnectionProblem = {
  kind: "none",
  message:
    "No proxy answers at this page's address, so the offline Mirror models run in this page. Real models need a proxy: see Proxy settings.",
};

export async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  if (!(response.headers.get("Content-Type") ?? "").includes("application/json")) return undefined;
  try {
    const body: unknown = await response.json();
    return isObject(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A proxy that answered before and no longer does (or now refuses the token): what happened, when, and
 * that the offline models carry on in the page.
 */
export function lostProblem(where: string, cause: ConnectionProblem, at: number): ConnectionProblem {
  const time = new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const detail = cause.kind === "none" ? "Start it again, then choose Reconnect." : cause.message;
  return {
    kind: cause.kind === "bad-token" ? "bad-token" : "lost",
    message: `${where} stopped answering at ${time}. ${detail} Meanwhile the offline Mirror models run in this page.`,
  };
}
