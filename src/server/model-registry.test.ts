import { describe, expect, it } from "vitest";
import { createModelRegistry } from "./model-registry.ts";

describe("the model registry", () => {
  it("lists no keyed providers without keys, and every keyed provider with a fake key, never echoing it", async () => {
    const bare = await createModelRegistry({ env: {}, builtins: true });
    const bareList = await bare.list();
    expect(new Set(bareList.models.map((model) => model.provider))).toEqual(new Set(["mirror"]));

    const keyed = await createModelRegistry({
      env: { ANTHROPIC_API_KEY: "sk-ant-fake-key-987" },
      builtins: true,
    });
    const keyedList = await keyed.list();
    expect(keyedList.models.some((model) => model.provider === "anthropic")).toBe(true);
    expect(JSON.stringify(keyedList)).not.toContain("sk-ant-fake-key-987");
  });

  it("warns, rather than failing, when the local server cannot be reached", async () => {
    const unreachable = await createModelRegistry({
      env: { LOCAL_OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
      builtins: false,
    });
    const list = await unreachable.list();
    expect(list.models.every((model) => model.provider === "mirror")).toBe(true);
    expect(list.warnings[0]).toMatch(
      /^The local OpenAI-compatible server at http:\/\/127\.0\.0\.1:9\/v1 could not be listed/,
    );
  });
});
