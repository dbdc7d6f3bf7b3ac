import { ImportError } from "./parsed-import.ts";

/**
 * A session as one HTML file that opens from disk with no network: the viewer (the app's own components,
 * built read-only by `vite.viewer.config.ts` into dist/viewer/) inlined as one script and one stylesheet,
 * and the session's JSON export, after redaction, in a data block that import reads back.
 *
 * The file's Content-Security-Policy allows the viewer's own script (by its hash) and nothing else: no
 * request of any kind, no other script, images only as data: URLs. Whatever a session holds (a reply that
 * writes `<script>` or `<img src=…>`) stays inert even where it would slip past the sanitizer.
 */

/** The id of the data block holding the session's JSON export. */
export const EMBEDDED_SESSION_ID = "pi-playground-session";
/** Where the built viewer lives, relative to the page. */
export const VIEWER_SCRIPT = "viewer/viewer.js";
export const VIEWER_STYLE = "viewer/viewer.css";

export interface ViewerAssets {
  script: string;
  style: string;
}

/**
 * JSON text made safe inside a `<script type="application/json">`: `<`, `>` and `&` (and the two line
 * separators older parsers stop at) written as \u escapes, so nothing in the data can close the block or
 * open a comment. They only ever occur inside JSON strings, where the escape reads back the same.
 */
export function escapeJsonForHtml(json: string): string {
  return json.replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Inline script or style text that cannot end its element early. `</script` (`</style`) becomes `<\/script`:
 * in JavaScript and CSS `\/` reads as `/` wherever the sequence can occur (strings, regular expressions,
 * comments). A script's `<!--` becomes `\x3C!--` (the same text in a string or regular expression), since
 * `<!--` followed by `<script` would make HTML read past the script's real end.
 */
function inlineSafe(text: string, tag: "script" | "style"): string {
  const closed = text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");
  return tag === "script" ? closed.replaceAll("<!--", "\\x3C!--") : closed;
}

/** The title a JSON export carries ("Session" when it carries none). */
function exportTitle(sessionJson: string): string {
  try {
    const parsed: unknown = JSON.parse(sessionJson);
    if (parsed && typeof parsed === "object" && "title" in parsed && typeof parsed.title === "string")
      return parsed.title;
  } catch {
    // Not JSON: the viewer says so when it opens; the page still gets a title.
  }
  return "Session";
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let binary = "";
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The policy of an exported file: its own script only, no network, no frames, no forms. */
export function exportPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src data:",
    "connect-src 'none'",
    "worker-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * The HTML file of a session: `sessionJson` is the session's JSON export, already redacted. Its page title
 * is read from that export too, never passed beside it, so the title is redacted with the rest.
 */
export async function buildHtmlExport(sessionJson: string, assets: ViewerAssets): Promise<string> {
  const title = exportTitle(sessionJson);
  const script = inlineSafe(assets.script, "script");
  const hash = await sha256Base64(script);
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${exportPolicy(hash)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="pi-playground">',
    `<title>${escapeHtml(title)} · pi playground</title>`,
    `<style>${inlineSafe(assets.style, "style")}</style>`,
    "</head>",
    "<body>",
    '<div id="app"></div>',
    `<script type="application/json" id="${EMBEDDED_SESSION_ID}">${escapeJsonForHtml(sessionJson.trimEnd())}</script>`,
    `<script type="module">${script}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** Whether a file's text is an HTML document (rather than JSON or JSON lines). */
export function looksLikeHtml(text: string): boolean {
  return /^(?:\uFEFF)?\s*(?:<!doctype\s+html|<html[\s>])/i.test(text.slice(0, 1024));
}

const OPENING = new RegExp(
  `<script\\s+type="application/json"\\s+id="${EMBEDDED_SESSION_ID}"\\s*>|<script\\s+id="${EMBEDDED_SESSION_ID}"\\s+type="application/json"\\s*>`,
  "i",
);

/**
 * The session export an HTML file carries, as JSON text; an ImportError says why there is none (another
 * page, a file cut short, a block that is not JSON).
 */
export function embeddedSession(html: string, fileName: string): string {
  const opening = OPENING.exec(html);
  if (!opening)
    throw new ImportError(
      `${fileName} is an HTML page but not a session exported by the playground: it holds no embedded session. Nothing was imported.`,
    );
  const start = opening.index + opening[0].length;
  const end = html.indexOf("</script>", start);
  if (end === -1)
    throw new ImportError(
      `${fileName} is cut short: its embedded session has no end (the file was not saved whole). Nothing was imported.`,
    );
  const text = html.slice(start, end);
  try {
    JSON.parse(text);
  } catch (error) {
    throw new ImportError(
      `${fileName} holds an embedded session that is not valid JSON (${(error as Error).message}). Nothing was imported.`,
      { cause: error },
    );
  }
  return text;
}

/** The built viewer's script and stylesheet, fetched from the page's own server (or static host). */
export async function loadViewerAssets(
  base: string,
  fetchText: (url: string) => Promise<Response> = (url) => fetch(url),
): Promise<ViewerAssets> {
  const read = async (path: string): Promise<string> => {
    const url = new URL(path, base).href;
    let response: Response;
    try {
      response = await fetchText(url);
    } catch (error) {
      throw new Error(`the viewer could not be fetched from ${url} (${(error as Error).message})`, {
        cause: error,
      });
    }
    if (!response.ok)
      throw new Error(
        `the viewer is not at ${url} (HTTP ${response.status}): the HTML export needs the built app (npm run build, or npm start)`,
      );
    const text = await response.text();
    // A server that answers every path with the app's page (a development server) has no viewer either.
    if (/^\s*</.test(text))
      throw new Error(
        `the viewer is not built at ${url}: the HTML export needs the built app (npm run build, or npm start)`,
      );
    return text;
  };
  const [script, style] = await Promise.all([read(VIEWER_SCRIPT), read(VIEWER_STYLE)]);
  return { script, style };
}
