import type { BodyShare } from "./body-budget.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiErrorBody } from "../shared/api-types.ts";
import { formatBytes } from "../shared/bytes.ts";
import { HttpError } from "../shared/http-error.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";
import { formatDuration } from "./format-duration.ts";

/**
 * Answer with JSON. `redact` sees the serialized body, so no field can carry a secret out; the security
 * headers are set here too, so the API is protected whichever server hosts the handler.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  redact: (text: string) => string = (text) => text,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const payload = redact(JSON.stringify(body));
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(payload);
}

/** JSON already written as text (a kept payload is served as it was serialized, never parsed again). */
export function sendRawJson(res: ServerResponse, status: number, json: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-store",
  });
  res.end(json);
}

export function sendError(
  res: ServerResponse,
  error: HttpError,
  redact: (text: string) => string = (text) => text,
): void {
  const body: ApiErrorBody = { error: error.message };
  sendJson(res, error.status, body, error.headers, redact);
}

/**
 * Read a request body as text, refusing anything over `limit` bytes with 413 before buffering it:
 * a declared Content-Length over the limit is refused at once, a chunked body as soon as it crosses it.
 * A body that goes silent for `idleTimeoutMs` is refused with 408: a client trickling an upload must not
 * hold a connection open for minutes.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  idleTimeoutMs: number,
  /** Where the bytes held are counted across requests: the declared length up front, or each chunk as it comes. */
  budget?: { share: BodyShare; busy: () => HttpError },
): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  const declaredFits = Number.isFinite(declared);
  if (budget && declaredFits && !budget.share.take(declared)) return Promise.reject(budget.busy());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: HttpError) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      chunks.length = 0;
      reject(error);
    };
    const idle = setTimeout(
      () =>
        fail(
          new HttpError(
            408,
            `The request body stalled: nothing arrived for ${formatDuration(idleTimeoutMs)}.`,
            { Connection: "close" },
          ),
        ),
      idleTimeoutMs,
    );
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      idle.refresh();
      size += chunk.length;
      if (size > limit) {
        fail(tooLarge(limit));
        return;
      }
      if (budget && !declaredFits && !budget.share.take(chunk.length)) {
        fail(budget.busy());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (error) => fail(new HttpError(400, `Could not read the request body: ${error.message}`)));
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the proxy's limit of ${formatBytes(limit)}.`, {
    Connection: "close",
  });
}
