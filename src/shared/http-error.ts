/**
 * An error that already knows the HTTP status and the message a person should read. Shared so that the
 * request checks give the same answer whether the proxy runs on a server or inside the page.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}
