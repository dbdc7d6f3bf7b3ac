import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiErrorBody } from "../shared/api-types.ts";
import { formatBytes } from "../shared/bytes.ts";
import { HttpError } from "../shared/http-error.ts";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, {
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
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-store",
  });
  res.end(json);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  const body: ApiErrorBody = { error: error.message };
  sendJson(res, error.status, body, error.headers);
}

/**
 * Read a request body as text, refusing anything over `limit` bytes with 413 before buffering it:
 * a declared Content-Length over the limit is refused at once, a chunked body as soon as it crosses it.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (error) => {
      if (!failed) reject(new HttpError(400, `Could not read the request body: ${error.message}`));
    });
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the proxy's limit of ${formatBytes(limit)}.`, {
    Connection: "close",
  });
}
