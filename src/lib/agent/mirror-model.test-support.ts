import type { Model } from "@earendil-works/pi-ai";

/** A Mirror model as the stream function's tests send it: nothing but what a request carries. */
export function mirrorTestModel(id = "m", name = id): Model<"mirror"> {
  return {
    id,
    name,
    api: "mirror",
    provider: "mirror",
    baseUrl: "",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1,
    maxTokens: 1,
  };
}
