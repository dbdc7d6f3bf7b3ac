import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createUserMessage } from "../messages/factories.ts";
import { exportSession } from "./export-format.ts";
import {
  buildHtmlExport,
  EMBEDDED_SESSION_ID,
  embeddedSession,
  escapeJsonForHtml,
  loadViewerAssets,
  looksLikeHtml,
} from "./html-export.ts";
import { parseSessionFile } from "./import-file.ts";
import { ImportError } from "./parsed-import.ts";
import { redactFile } from "./redaction.ts";
import { snapshot } from "./session-file.test-support.ts";

const HOSTILE = 'end </script><script>alert(1)</script> <!-- <script> & "quotes" \u2028\u2029 </SCRIPT >';
// A viewer whose code holds what HTML would read as the end of its element.
const ASSETS = {
  script: 'const a = "</script><script>x()</script>"; const b = /<!--/; const c = `<!--<script>`; main();',
  style: '.x::after { content: "</style><script>y()</script>"; }',
};

function hostileSession() {
  const session = snapshot();
  return {
    ...session,
    title: `<img src=x onerror=alert(1)> ${HOSTILE}`,
    entries: [
      ...session.entries,
      {
        type: "message" as const,
        id: "hostile1",
        parentId: session.entries.at(-1)?.id ?? null,
        timestamp: new Date(0).toISOString(),
        message: createUserMessage(HOSTILE),
      },
    ],
    leafId: "hostile1",
  };
}

/** The HTML parser's view of an element's text: from its opening tag to the first `</tag`. */
function elementText(html: string, opening: string, tag: string): string {
  const start = html.indexOf(opening);
  expect(start).toBeGreaterThan(-1);
  const from = start + opening.length;
  return html.slice(from, html.toLowerCase().indexOf(`</${tag}`, from));
}

describe("a session exported as one HTML file", () => {
  it("embeds the JSON export so that nothing in it can close its block, and reads it back unchanged", async () => {
    const json = exportSession(hostileSession(), "json", 0).text;
    const html = await buildHtmlExport(json, ASSETS);
    const data = elementText(html, `<script type="application/json" id="${EMBEDDED_SESSION_ID}">`, "script");
    expect(data).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(data)).toEqual(JSON.parse(json));
    expect(embeddedSession(html, "s.html")).toBe(data);
    // Exactly the two scripts the page writes end, and the title is text.
    expect(html.replace(/<style>[^]*?<\/style>/, "").match(/<\/script/gi)).toHaveLength(2);
    expect(html).toContain("<title>&#60;img src=x onerror=alert(1)&#62;");
  });

  it("inlines the viewer so that its code cannot end its element, and allows only that script", async () => {
    const html = await buildHtmlExport("{}", ASSETS);
    const script = elementText(html, '<script type="module">', "script");
    expect(script).toContain("main();");
    expect(script).not.toContain("<!--");
    const style = elementText(html, "<style>", "style");
    expect(style).toContain('content: "<\\/style><script>y()</script>"');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
    const hash = createHash("sha256").update(script).digest("base64");
    expect(policy.split("; ")).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        `script-src 'sha256-${hash}'`,
        "connect-src 'none'",
        "img-src data:",
        "worker-src 'none'",
      ]),
    );
    // The escapes keep the code's meaning.
    expect(new Function(`${script.replace("main();", "")} return [a, b.test("<!--"), c];`)()).toEqual([
      "</script><script>x()</script>",
      true,
      "<!--<script>",
    ]);
  });

  it("carries none of a key, an e-mail address or a home folder under strict, its page title included", async () => {
    const leaks = ["sk-test-ABCDEF1234567890", "alice@example.com", "/home/alice/project"];
    const session = { ...snapshot(), title: `notes ${leaks.join(" ")}` };
    const json = exportSession(session, "json", 0).text;
    for (const leak of leaks) expect(json).toContain(leak);
    const html = await buildHtmlExport(redactFile(json, { kind: "json", indent: 2 }, "strict").text, ASSETS);
    for (const leak of [...leaks, "alice"]) expect(html).not.toContain(leak);
    expect(html).toMatch(/<title>notes .* · pi playground<\/title>/);
  });

  it("imports as the session it was exported from, redaction included", async () => {
    const json = exportSession(hostileSession(), "json", 0).text;
    const secret = json.replace("end </script>", "end sk-test-ABCDEF1234567890abcd </script>");
    const redacted = redactFile(secret, { kind: "json", indent: 2 }, "secrets").text;
    expect(redacted).not.toContain("sk-test-ABCDEF1234567890abcd");
    const html = await buildHtmlExport(redacted, ASSETS);
    expect(looksLikeHtml(html)).toBe(true);
    const fromHtml = parseSessionFile(html, "s.html");
    const fromJson = parseSessionFile(redacted, "s.json");
    expect(fromHtml.entries).toEqual(fromJson.entries);
    expect(fromHtml.calls).toEqual(fromJson.calls);
    expect(fromHtml.leafId).toEqual(fromJson.leafId);
    expect(fromHtml.title).toBe(fromJson.title);
    expect(JSON.stringify(fromHtml.entries)).not.toContain("sk-test-ABCDEF1234567890abcd");
  });

  it("refuses another page, a file cut short and a block that is not JSON, each saying so", async () => {
    const html = await buildHtmlExport(exportSession(snapshot(), "json", 0).text, ASSETS);
    const refusal = (text: string) => {
      try {
        parseSessionFile(text, "page.html");
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        return (error as Error).message;
      }
      throw new Error("imported");
    };
    expect(refusal("<!doctype html><html><body><p>hello</p></body></html>")).toBe(
      "page.html is an HTML page but not a session exported by the playground: it holds no embedded session. Nothing was imported.",
    );
    const cut = html.slice(0, html.indexOf(`id="${EMBEDDED_SESSION_ID}"`) + 200);
    expect(refusal(cut)).toBe(
      "page.html is cut short: its embedded session has no end (the file was not saved whole). Nothing was imported.",
    );
    const broken = html.replace(/("entries": \[)/, "$1 oops");
    expect(refusal(broken)).toMatch(/^page\.html holds an embedded session that is not valid JSON \(/);
    expect(looksLikeHtml('{"html": "<!doctype html>"}')).toBe(false);
  });

  it("escapes exactly the characters that matter, as JSON escapes", () => {
    expect(escapeJsonForHtml('"<a>&\u2028"')).toBe('"\\u003ca\\u003e\\u0026\\u2028"');
  });

  it("says when the viewer is not built, before anything is saved", async () => {
    const notFound = async () => new Response("missing", { status: 404 });
    await expect(loadViewerAssets("http://127.0.0.1/app/", notFound)).rejects.toThrow(
      "the viewer is not at http://127.0.0.1/app/viewer/viewer.js (HTTP 404): the HTML export needs the built app (npm run build, or npm start)",
    );
    const spa = async () => new Response("<!doctype html><html></html>", { status: 200 });
    await expect(loadViewerAssets("http://127.0.0.1/", spa)).rejects.toThrow(/the viewer is not built at/);
    const served = async (url: string) => new Response(url.endsWith(".js") ? "main();" : ".x{}");
    await expect(loadViewerAssets("http://127.0.0.1/", served)).resolves.toEqual({
      script: "main();",
      style: ".x{}",
    });
  });
});
