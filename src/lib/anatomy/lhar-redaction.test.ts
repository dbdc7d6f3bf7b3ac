import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { redactFile } from "../sessions/redaction.ts";
import { analyze, syntheticSession } from "./anatomy.test-support.ts";
import { toLhar, toLharLines } from "./lhar.ts";

const schema = JSON.parse(
  readFileSync(new URL("../sessions/lhar.schema.json", import.meta.url), "utf8"),
) as object;

const KEY = "sk-test-ABCDEF1234567890";

/** An LHAR export whose captured payload holds a key, an address and a home folder, in a header too. */
function leakyDocument() {
  const payload = {
    model: "mirror",
    messages: [{ role: "tool", content: `key ${KEY}, mail alice@example.com, cwd /home/alice/project` }],
    headers: { authorization: "Bearer abc.def.123456" },
  };
  const calls = analyze(syntheticSession());
  return toLhar({
    sessionId: "0f4c2b1e-1111-4222-8333-944455556666",
    createdAt: 0,
    calls,
    bodies: new Map([[1, { payload, requestBytes: 1_000 }]]),
    creator: { name: "pi-playground", version: "0.1.0" },
  });
}

describe("redacted LHAR", () => {
  it("keeps none of the three under strict, and still validates against Context Lens's schema", () => {
    const document = leakyDocument();
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(schema, "lhar");
    const wrapper = ajv.getSchema("lhar#/definitions/LharJsonWrapper");
    const record = ajv.getSchema("lhar#/definitions/LharRecord");
    if (!wrapper || !record) throw new Error("schema definitions missing");

    const json = redactFile(`${JSON.stringify(document, null, 2)}\n`, { kind: "json", indent: 2 }, "strict");
    const lines = redactFile(toLharLines(document), { kind: "jsonl" }, "strict");
    for (const out of [json, lines]) {
      for (const leak of [KEY, "alice@example.com", "/home/alice", "abc.def.123456"])
        expect(out.text).not.toContain(leak);
      expect(out.counts).toMatchObject({ key: 1, email: 1, home: 1, credential: 1 });
    }
    expect(wrapper(JSON.parse(json.text)), JSON.stringify(wrapper.errors)).toBe(true);
    const [, ...entries] = lines.text.trim().split("\n");
    for (const entry of entries) expect(record(JSON.parse(entry)), JSON.stringify(record.errors)).toBe(true);
    // Identifiers are left alone: the trace and spans still link up.
    expect(JSON.parse(json.text)).toMatchObject({
      lhar: { sessions: [{ trace_id: document.lhar.sessions[0]?.trace_id }] },
    });
  });
});
