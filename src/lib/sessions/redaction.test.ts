import type { AssistantMessage, ToolResultMessage } from "@earendil-works/pi-ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createUserMessage } from "../messages/factories.ts";
import { chainEntries } from "../messages/entries.ts";
import { urlSecrets } from "../../shared/url-secrets.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { exportSession, type ExportKind } from "./export-format.ts";
import { parseSessionFile } from "./import-file.ts";
import { openWithPi } from "./pi-reading.test-support.ts";
import {
  findSpans,
  marker,
  redactCopy,
  redactFile,
  redactString,
  type FileShape,
  type RedactionLevel,
} from "./redaction.ts";
import { snapshot } from "./session-file.test-support.ts";

const KEY = "sk-test-ABCDEF1234567890";
const EMAIL = "alice@example.com";
const HOME = "/home/alice/project";

const shapeOf = (kind: ExportKind): FileShape =>
  kind === "json" ? { kind: "json", indent: 2 } : { kind: "jsonl" };

/** A session whose tool result holds a key, an e-mail address and a home folder. */
function leakySession() {
  const base = snapshot();
  const asked: AssistantMessage = {
    role: "assistant",
    content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "notes" } }],
    api: "mirror",
    provider: "mirror",
    model: "mirror",
    usage: zeroUsage(),
    stopReason: "toolUse",
    timestamp: 8,
  };
  const result: ToolResultMessage = {
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "read",
    content: [{ type: "text", text: `key ${KEY}, mail ${EMAIL}, cwd ${HOME}` }],
    isError: false,
    timestamp: 9,
  };
  const added = chainEntries([createUserMessage("and now?", 7), asked, result], base.leafId);
  return { ...base, entries: [...base.entries, ...added], leafId: added.at(-1)?.id ?? null };
}

describe("redaction of exports", () => {
  it.each(["jsonl", "json", "pi"] as const)(
    "strict leaves none of key, address and home folder in %s; secrets only removes the key",
    (kind) => {
      const { text } = exportSession(leakySession(), kind, 0);
      expect(text).toContain(KEY);
      const strict = redactFile(text, shapeOf(kind), "strict");
      for (const leak of [KEY, EMAIL, "/home/alice", "alice"]) expect(strict.text).not.toContain(leak);
      expect(strict.counts).toMatchObject({ key: 1, email: 1, home: 1 });
      expect(strict.listed).toEqual([
        { kind: "key", original: KEY, count: 1 },
        { kind: "email", original: EMAIL, count: 1 },
        { kind: "home", original: "/home/alice", count: 1 },
      ]);
      const secrets = redactFile(text, shapeOf(kind), "secrets");
      expect(secrets.text).not.toContain(KEY);
      expect(secrets.text).toContain(EMAIL);
      expect(secrets.text).toContain(HOME);
      // Still the session: the playground reads it back, with the markers in place of what was found.
      if (kind !== "pi") {
        const parsed = parseSessionFile(strict.text, `x.${kind}`);
        expect(parsed.problems).toEqual([]);
        expect(parsed.entries).toHaveLength(leakySession().entries.length);
        expect(JSON.stringify(parsed.entries)).toContain(`mail ${marker("email")}`);
      }
    },
  );

  it("keeps a pi file byte-equal wherever nothing was replaced, and pi's SessionManager reads it", () => {
    const session = leakySession();
    const { text } = exportSession(session, "pi", 0);
    const redacted = redactFile(text, { kind: "jsonl" }, "strict").text;
    const before = text.split("\n");
    const after = redacted.split("\n");
    expect(after).toHaveLength(before.length);
    const changed = after.filter((line, index) => line !== before[index]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toContain(marker("key"));

    const original = openWithPi(text);
    const pi = openWithPi(redacted);
    const ids = (entries: unknown[]) => entries.map((entry) => (entry as { id: string }).id);
    expect(ids(pi.getEntries())).toEqual(ids(original.getEntries()));
    expect(pi.getLeafId()).toBe(original.getLeafId());
    const context = JSON.stringify(pi.buildSessionContext().messages);
    expect(context).toContain(marker("key"));
    expect(context).not.toContain(KEY);
  });

  it("returns the text itself under none, and when nothing is found", () => {
    const { text } = exportSession(snapshot(), "jsonl", 0);
    expect(redactFile(`${KEY}\n`.repeat(0) + text, { kind: "jsonl" }, "none").text).toBe(text);
    expect(redactFile(text, { kind: "jsonl" }, "strict")).toMatchObject({ text, total: 0 });
    const json = exportSession(snapshot(), "json", 0).text;
    expect(redactFile(json, { kind: "json", indent: 2 }, "strict").text).toBe(json);
  });

  it("names the line that is not JSON", () => {
    expect(() => redactFile('{"a":1}\n{oops\n', { kind: "jsonl" }, "secrets")).toThrow(/line 2 is not JSON/);
  });
});

describe("what counts as a secret", () => {
  const secrets = (text: string) => redactString(text, "secrets");

  it("finds providers' keys, bearer tokens, JWTs, private keys and credential assignments", () => {
    expect(secrets(`use ${KEY} here`)).toBe(`use ${marker("key")} here`);
    expect(secrets("sk-ant-api03-abcdefghijklmnopqrstuv")).toBe(marker("key"));
    expect(secrets(`AIza${"x1".repeat(18)}`)).toBe(marker("key"));
    expect(secrets("Authorization: Bearer abc.def-123456")).toBe(`Authorization: Bearer ${marker("token")}`);
    expect(secrets("eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl")).toBe(marker("key"));
    expect(secrets("-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----!")).toBe(
      `${marker("private-key")}!`,
    );
    expect(secrets('{"password": "hunter22"}')).toBe(`{"password": "${marker("credential")}"}`);
    expect(secrets("OPENAI_API_KEY=abc123xyz")).toBe(`OPENAI_API_KEY=${marker("credential")}`);
  });

  it("applies the proxy's URL rules: user information, token-like segments, credential parameters", () => {
    expect(secrets("see https://user:pa55word@host.example/v1/chat.")).toBe(
      `see https://${marker("url")}@host.example/v1/chat.`,
    );
    expect(secrets("http://127.0.0.1:1/v1/tok3nSecret?api-version=2024&key=abc")).toBe(
      `http://127.0.0.1:1/v1/${marker("url")}?api-version=2024&key=${marker("url")}`,
    );
  });

  it("leaves words, versions, prose and numbers alone", () => {
    for (const text of [
      "task-ABCDEFGHIJKLMNOPQRSTUV is a task id",
      "Bearer authentication is described in RFC 6750",
      "max_tokens: 4096",
      "https://gw.example/openai/v1/chat-completions",
      "version 1.2.3, pi 0.7",
    ])
      expect(secrets(text)).toBe(text);
  });

  it("finds under strict addresses, home folders on every system and long digit runs, not dates or decimals", () => {
    const strict = (text: string) => redactString(text, "strict");
    expect(strict("mail bob.smith+x@mail.example.co.uk.")).toBe(`mail ${marker("email")}.`);
    expect(strict("/Users/bob/code and C:\\Users\\bob\\code")).toBe(
      `${marker("home")}/code and ${marker("home")}\\code`,
    );
    expect(strict("call +1 555 123 4567 or 4111-1111-1111-1111")).toBe(
      `call +${marker("digits")} or ${marker("digits")}`,
    );
    for (const text of ["2026-12-01 19:28:49", "pi = 3.14159265358979", "a@b", "@home", "id 12345678"])
      expect(strict(text)).toBe(text);
  });

  it("finds a key written with JSON escapes, since strings are read decoded", () => {
    const line = String.raw`{"role":"user","content":"sk-\u0074est-ABCDEF\u00312345\u0036\u0037\u0038\u0039\u0030"}`;
    expect(line).not.toContain(KEY);
    const out = redactFile(line, { kind: "jsonl" }, "secrets");
    expect(out.total).toBe(1);
    expect(JSON.parse(out.text)).toEqual({ role: "user", content: marker("key") });
  });

  it("rewrites whole values of credential fields, and never identifiers, types or signatures", () => {
    const payload = {
      id: "sk-id-ABCDEFGHIJKLMNOPQRSTUVWX",
      toolCallId: "sk-call-ABCDEFGHIJKLMNOPQRSTUV",
      thinkingSignature: "sk-sig-ABCDEFGHIJKLMNOPQRSTUV",
      headers: { Authorization: "Basic dXNlcjpwYXNz", "x-api-key": "k" },
      text: "nothing",
    };
    const out = JSON.parse(redactCopy(JSON.stringify(payload), "secrets")) as typeof payload;
    expect(out).toEqual({
      ...payload,
      headers: { Authorization: marker("credential"), "x-api-key": marker("credential") },
    });
  });

  it("copes with unicode around and inside what it finds", () => {
    expect(redactString(`😀${KEY}😀 /home/ålice😀/x`, "strict")).toBe(
      `😀${marker("key")}😀 ${marker("home")}/x`,
    );
    expect(redactString(`é${EMAIL}é`, "strict")).toBe(`é${marker("email")}é`);
  });

  it("stays linear on hostile megabyte strings", () => {
    const size = 1_000_000;
    for (const text of [
      "a".repeat(size),
      "a@".repeat(size / 2),
      "http://".repeat(size / 7),
      `/home/${"x".repeat(size)}`,
      "1 ".repeat(size / 2) + "x",
      "-----BEGIN PRIVATE KEY-----".repeat(1000) + "a".repeat(size),
      "password=".repeat(size / 9),
      `${"sk-".repeat(size / 3)}`,
    ]) {
      const out = redactString(text, "strict");
      expect(typeof out).toBe("string");
    }
    // And a huge key is found whole.
    expect(redactString(`sk-${"A".repeat(size)}`, "secrets")).toBe(marker("key"));
  });

  it("keeps any JSON value valid and its shape unchanged, and redacting twice changes nothing more", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom<RedactionLevel>("secrets", "strict"),
        fc.array(fc.constantFrom(KEY, EMAIL, HOME, "Bearer x.y.z123", "555-123-4567", "\\", '"', "\u2028")),
        (value, level, leaks) => {
          const withLeaks = { value, leaks: leaks.join(" ") };
          const text = JSON.stringify(withLeaks);
          const once = redactFile(text, { kind: "jsonl" }, level).text;
          const parsed = JSON.parse(once) as typeof withLeaks;
          expect(shape(parsed)).toEqual(shape(JSON.parse(text)));
          expect(redactFile(once, { kind: "jsonl" }, level).text).toBe(once);
          if (level === "strict")
            for (const leak of [KEY, EMAIL, "/home/alice"]) expect(once).not.toContain(leak);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("finds in a URL the parts urlSecrets names", () => {
    for (const url of [
      "http://u:p4ss@h/v1/tok3nSecret?token=t",
      "https://gw.example/v1?api-version=2024-02-01&key=abc",
      "http://h/v1/openai",
      "http://h/a%2Fb1234567/x?sig=%20z",
    ]) {
      const found = findSpans(url, "secrets").map(([start, end]) => url.slice(start, end));
      const named = urlSecrets(url);
      const userInfo = url.match(/:\/\/([^@/]+)@/)?.[1];
      for (const part of found) expect(part === userInfo || named.includes(part)).toBe(true);
      if (named.length > 0) expect(found.length).toBeGreaterThan(0);
    }
  });
});

/** A value with every string replaced by its type: what redaction must never change. */
function shape(value: unknown): unknown {
  if (typeof value === "string") return "string";
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]));
  return value;
}
