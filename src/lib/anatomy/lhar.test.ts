import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { analyze, syntheticSession } from "./anatomy.test-support.ts";
import { toLhar, toLharLines, type LharBody } from "./lhar.ts";

// Context Lens's published schema, vendored beside the exporter (see its $comment).
const schema = JSON.parse(readFileSync(new URL("../sessions/lhar.schema.json", import.meta.url), "utf8")) as {
  definitions: Record<string, object>;
};

function validator(definition: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema(schema, "lhar");
  const validate = ajv.getSchema(`lhar#/definitions/${definition}`);
  if (!validate) throw new Error(`no definition ${definition}`);
  return validate;
}

const creator = { name: "pi-playground", version: "0.1.0" };

function exported(bodies = new Map<number, LharBody>()) {
  const calls = analyze(syntheticSession());
  return toLhar({ sessionId: "0f4c2b1e-1111-4222-8333-944455556666", createdAt: 0, calls, bodies, creator });
}

describe("LHAR export", () => {
  it("validates against Context Lens's schema, wrapped and as lines", () => {
    const payload = { model: "mirror", messages: [{ role: "user", content: "hi" }] };
    const document = exported(new Map([[1, { payload, requestBytes: 1_234 }]]));
    const wrapped = validator("LharJsonWrapper");
    expect(wrapped(document), JSON.stringify(wrapped.errors)).toBe(true);

    const [session, ...entries] = toLharLines(document)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    const sessionLine = validator("LharSessionLine");
    const record = validator("LharRecord");
    expect(sessionLine(session), JSON.stringify(sessionLine.errors)).toBe(true);
    expect(entries).toHaveLength(3);
    for (const entry of entries) expect(record(entry), JSON.stringify(record.errors)).toBe(true);
  });

  it("carries each call's usage, composition and growth", () => {
    const payload = { model: "mirror", messages: [] };
    const { lhar } = exported(new Map([[1, { payload, requestBytes: 1_234 }]]));
    expect(lhar.sessions).toEqual([
      {
        trace_id: "0f4c2b1e111142228333944455556666",
        started_at: new Date(1_000).toISOString(),
        tool: "pi",
        model: "mirror",
      },
    ]);
    const [first, second, third] = lhar.entries;
    expect(second?.raw.request_body).toEqual(payload);
    expect(second?.transfer.request_bytes).toBe(1_234);
    expect(first?.raw.request_body).toBeNull();
    expect(third?.usage_ext).toEqual({ cache_read_tokens: 4_000, cache_write_tokens: 0, cost_usd: 0.03 });
    expect(third?.context_lens.growth).toEqual({
      tokens_added_this_turn: 400,
      cumulative_tokens: 5_000,
      compaction_detected: false,
    });
    expect(third?.context_lens.composition[0]).toEqual({
      category: "tool_results",
      tokens: 3_835,
      pct: 76.7,
      count: 1,
    });
    const sum = third?.context_lens.composition.reduce((total, entry) => total + entry.tokens, 0);
    expect(sum).toBe(5_000);
    expect(third?.context_lens.system_tokens).toBe(385);
    expect(third?.context_lens.utilization).toBeCloseTo(0.5);
  });

  it("is checked for real: an entry with a field the schema does not know fails", () => {
    const document = exported();
    const broken = { lhar: { ...document.lhar, entries: [{ ...document.lhar.entries[0], extra: 1 }] } };
    expect(validator("LharJsonWrapper")(broken)).toBe(false);
  });
});
