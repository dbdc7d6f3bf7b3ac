import { describe, expect, it } from "vitest";
import { parseSessionFile } from "../sessions/import-file.ts";
import { ImportError } from "../sessions/parsed-import.ts";
import { callRecords } from "../storage/records.ts";
import { analyze, syntheticSession } from "./anatomy.test-support.ts";
import { readBody } from "./call-body.ts";
import { toLhar, toLharLines, type LharBody, type LharDocument } from "./lhar.ts";
import { CallAnalyzer } from "./session-anatomy.ts";

// LHAR export → import → the same calls with the same composition numbers: the session is exported by
// the real exporter, read back by the real importer (as lines and as a document), its calls analysed again
// by the anatomy, and exported again; the two exports are equal entry by entry.

const SESSION_ID = "0f4c2b1e-1111-4222-8333-944455556666";
const creator = { name: "pi-playground", version: "0.1.0" };
const payload = {
  model: "gpt-4o-mini",
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "What is 6 x 7?" },
  ],
  tools: [
    {
      type: "function",
      function: { name: "calculate", description: "Arithmetic.", parameters: { type: "object" } },
    },
  ],
};

function exported(): LharDocument {
  const bodies = new Map<number, LharBody>([[1, { payload, requestBytes: 321 }]]);
  return toLhar({ sessionId: SESSION_ID, createdAt: 0, calls: analyze(syntheticSession()), bodies, creator });
}

/** Import a file's text, analyse its calls as the anatomy does, and export them again. */
function roundTrip(
  text: string,
  fileName: string,
): { again: LharDocument; parsed: ReturnType<typeof parseSessionFile> } {
  const parsed = parseSessionFile(text, fileName);
  const analyzer = new CallAnalyzer({ entries: () => parsed.entries, windowOf: () => undefined });
  const bodies = new Map<number, LharBody>();
  const calls = parsed.calls.map((call, seq) => {
    const { summary, body } = callRecords(SESSION_ID, seq, call);
    if (body.payload.kept === "all")
      bodies.set(seq, { payload: body.payload.value, requestBytes: body.payload.bytes });
    return analyzer.add(summary, readBody(body));
  });
  return { again: toLhar({ sessionId: SESSION_ID, createdAt: 0, calls, bodies, creator }), parsed };
}

describe("LHAR import", () => {
  it.each([
    ["lines", (document: LharDocument) => toLharLines(document), "session.lhar"],
    ["a document", (document: LharDocument) => JSON.stringify(document), "session.lhar.json"],
  ])("gives back the exported calls, composition numbers included (%s)", (_, write, fileName) => {
    const original = exported();
    const { again, parsed } = roundTrip(write(original), fileName);
    expect(parsed.source).toBe("lhar");
    expect(parsed.entries).toEqual([]);
    expect(parsed.calls).toHaveLength(3);
    // Every composition is there to compare (the exporter had the messages of all three calls).
    for (const entry of original.lhar.entries)
      expect(entry.context_lens.composition.length).toBeGreaterThan(1);
    expect(again.lhar.entries).toEqual(original.lhar.entries);
    expect(again.lhar.sessions).toEqual(original.lhar.sessions);
  });

  it("rebuilds a call's model view from its request body, and says the calls have no facts", () => {
    const { parsed } = roundTrip(toLharLines(exported()), "session.lhar");
    const withBody = parsed.calls[1];
    expect(withBody?.body.messages.kept).toBe("all");
    const messages = withBody?.body.messages.kept === "all" ? withBody.body.messages.value : [];
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(messages[0]).toMatchObject({ content: "Be brief.", toolsAdded: [{ name: "calculate" }] });
    expect(parsed.calls[0]?.body.messages).toMatchObject({ kept: "none" });
    expect(parsed.notes.join(" ")).toContain("3 model calls and no facts");
  });

  it.each([
    [
      "a field of the wrong type",
      (document: LharDocument) => {
        (
          document.lhar.entries[1] as unknown as { gen_ai: { usage: { input_tokens: unknown } } }
        ).gen_ai.usage.input_tokens = "many";
        return JSON.stringify(document);
      },
      "session.lhar.json",
      "entry 2 (lhar.entries[1]): gen_ai.usage.input_tokens must be number",
    ],
    [
      "a missing field",
      (document: LharDocument) => {
        delete (document.lhar.entries[0] as unknown as { timestamp?: string }).timestamp;
        return toLharLines(document);
      },
      "session.lhar",
      'line 2: the file lacks the required field "timestamp"',
    ],
    [
      "an unknown composition category",
      (document: LharDocument) => {
        const entry = document.lhar.entries[2];
        if (entry?.context_lens.composition[0])
          (entry.context_lens.composition[0] as { category: string }).category = "gossip";
        return toLharLines(document);
      },
      "session.lhar",
      "line 4: context_lens.composition[0].category must be one of",
    ],
    [
      "a line that is not JSON",
      (document: LharDocument) => `${toLharLines(document)}{oops\n`,
      "session.lhar",
      "line 5 is not valid JSON",
    ],
    [
      "no entries",
      (document: LharDocument) => toLharLines({ lhar: { ...document.lhar, entries: [] } }),
      "session.lhar",
      "it holds no entry",
    ],
  ])("refuses a file with %s, naming what is wrong and where", (_, damage, fileName, message) => {
    const text = damage(exported());
    expect(() => parseSessionFile(text, fileName)).toThrow(ImportError);
    expect(() => parseSessionFile(text, fileName)).toThrow(message);
    expect(() => parseSessionFile(text, fileName)).toThrow("Nothing was imported.");
  });

  it("refuses an entry whose request body nests too deeply", () => {
    const document = exported();
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 500; level++) {
      const next = {};
      deep.next = next;
      deep = next;
    }
    const entry = document.lhar.entries[0];
    if (entry) entry.raw.request_body = root;
    expect(() => parseSessionFile(toLharLines(document), "deep.lhar")).toThrow(
      /line 2 nests more than \d+ levels deep/,
    );
  });
});
