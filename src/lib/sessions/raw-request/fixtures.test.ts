import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { modelViewOf, readRawRequest, rebuildRequest } from "./read-request.ts";
import { rawRequestImport, REQUEST_ONLY } from "./raw-request-import.ts";
import type { RequestShape } from "./rebuilt.ts";

// One request body per shape, written as each provider documents its requests (not built by pi-ai): each
// imports as one call with the right messages, roles and tool definitions, and names what it leaves out.

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

interface Case {
  file: string;
  shape: RequestShape;
  roles: string[];
  tools: { name: string; required?: string[] }[];
  unmapped: string[];
}

const WEATHER = { name: "get_weather", required: ["city"] };
const PROMPT = "You are a travel assistant. Use the tools for facts.";

const CASES: Case[] = [
  {
    file: "openai-chat-completions.json",
    shape: "openai-completions",
    roles: ["user", "assistant", "toolResult", "assistant", "user"],
    tools: [WEATHER, { name: "get_forecast" }],
    unmapped: [],
  },
  {
    file: "openai-responses.json",
    shape: "openai-responses",
    roles: ["user", "assistant", "toolResult", "assistant", "user"],
    tools: [WEATHER],
    unmapped: [
      `tools[1]: a "web_search_preview" part, not a function tool; pi-ai's tools are functions, left out`,
    ],
  },
  {
    file: "anthropic-messages.json",
    shape: "anthropic-messages",
    roles: ["user", "assistant", "toolResult", "user"],
    tools: [WEATHER],
    unmapped: [
      `tools[1]: a "web_search_20250305" part, a tool the provider runs itself; pi-ai's tools are functions, left out`,
    ],
  },
  {
    file: "google-generate-content.json",
    shape: "google-generative-ai",
    roles: ["user", "assistant", "toolResult", "assistant", "user"],
    tools: [WEATHER],
    unmapped: [
      'contents[1].parts[0]: the call to get_weather has no id in this shape; it is given "get_weather_1" here',
      "tools[1]: googleSearch, a tool the provider runs itself; left out",
    ],
  },
];

describe("one request body per shape", () => {
  it.each(CASES)(
    "$file is read as $shape: messages, roles, tools",
    ({ file, shape, roles, tools, unmapped }) => {
      const read = readRawRequest(fixture(file));
      if (!read.ok) throw new Error(read.problem);
      expect(read.shapes).toEqual([shape]);
      const request = rebuildRequest(read.body, shape);
      expect(request.context.systemPrompt).toBe(PROMPT);
      expect(request.context.messages.map((message) => message.role)).toEqual(roles);
      expect(
        request.context.tools.map((tool) => ({
          name: tool.name,
          ...((tool.parameters as { required?: string[] }).required
            ? { required: (tool.parameters as { required?: string[] }).required }
            : {}),
        })),
      ).toEqual(tools);
      expect(request.unmapped).toEqual(unmapped);
      // The model view pi would send: the prompt and the tools as the leading system message, then the rest.
      const view = modelViewOf(request);
      expect(view.map((message) => message.role)).toEqual(["system", ...roles]);
      expect(view[0]).toMatchObject({
        content: PROMPT,
        toolsAdded: tools.map(({ name }) => expect.objectContaining({ name })),
      });
    },
  );

  it("keeps each shape's tool call and its result paired by id, with the call's arguments", () => {
    for (const { file, shape } of CASES) {
      const read = readRawRequest(fixture(file));
      if (!read.ok) throw new Error(read.problem);
      const { messages } = rebuildRequest(read.body, shape).context;
      const call = messages.flatMap((message) =>
        message.role === "assistant" ? message.content.filter((part) => part.type === "toolCall") : [],
      )[0];
      const result = messages.find((message) => message.role === "toolResult");
      expect(call, file).toMatchObject({ name: "get_weather", arguments: { city: "Lisbon" } });
      expect(result, file).toMatchObject({ toolCallId: call?.id, toolName: "get_weather", isError: false });
    }
  });

  it("imports as a session of one call and no facts: the body as its payload, the model view as its messages", () => {
    const read = readRawRequest(fixture("anthropic-messages.json"));
    if (!read.ok) throw new Error(read.problem);
    const { parsed } = rawRequestImport(read.body, "anthropic-messages", "request.json", 1_000);
    expect(parsed).toMatchObject({
      source: "raw-request",
      entries: [],
      leafId: null,
      title: "Request: Anthropic messages, claude-sonnet-4-5",
    });
    expect(parsed.calls).toHaveLength(1);
    const call = parsed.calls[0];
    expect(call?.summary).toMatchObject({
      provider: "anthropic",
      modelId: "claude-sonnet-4-5",
      api: "anthropic-messages",
      messageCount: 5,
      options: { maxTokens: 1024 },
      outcome: { stopReason: REQUEST_ONLY },
    });
    expect(call?.summary.capture.note).toContain("Not mapped (kept in the payload only): tools[1]");
    expect(call?.body.payload).toMatchObject({ kept: "all", value: read.body });
    expect(
      call?.body.messages.kept === "all" && call.body.messages.value.map((message) => message.role),
    ).toEqual(["system", "user", "assistant", "toolResult", "user"]);
    // Script-bearing text stays text: it is data in the messages, never markup.
    const user = call?.body.messages.kept === "all" ? call.body.messages.value[1] : undefined;
    expect(user).toMatchObject({ role: "user", content: expect.stringContaining("<script>") });
  });
});
