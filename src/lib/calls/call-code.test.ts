import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@earendil-works/pi-ai";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../storage/records.ts";
import { callAsCode } from "./call-code.ts";

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function call(provider: string, modelId: string): CallRecord {
  return {
    schema: 2,
    sessionId: "s",
    seq: 2,
    id: "c",
    startedAt: 1,
    provider,
    modelId,
    api: "anthropic-messages",
    options: { reasoning: "low", maxTokens: 1000 },
    messageCount: 2,
    leafId: null,
    outcome: { stopReason: "stop", usage },
    timing: { durationMs: 1 },
    capture: { messages: "all", payload: "all" },
  };
}

// Quotes, a heredoc-looking line and a dollar sign: nothing of it may be touched by the shell.
const messages: Message[] = [
  { role: "system", content: "It's $HOME\nJSON\n`x`", timestamp: 0 },
  { role: "user", content: [{ type: "text", text: "say 'hi' \"there\"" }], timestamp: 1 },
];

/** Run the curl command with `curl` replaced by a function that prints its arguments and body. */
function runCurl(command: string, env: Record<string, string> = {}): { args: string[]; body: string } {
  const script = `curl() { printf '%s\\n' "$@" > "$ARGS_FILE"; cat; }\n${command}\n`;
  const dir = join(process.cwd(), "node_modules", ".cache");
  mkdirSync(dir, { recursive: true });
  const argsFile = join(dir, `curl-args-${process.pid}.txt`);
  const body = execFileSync("bash", ["-c", script], {
    env: { ...process.env, ...env, ARGS_FILE: argsFile },
    encoding: "utf8",
  });
  const args = execFileSync("cat", [argsFile], { encoding: "utf8" }).split("\n").filter(Boolean);
  return { args, body };
}

describe("callAsCode", () => {
  it("sends the captured payload to the provider, the key from the environment, the body untouched by the shell", () => {
    const payload = { model: "claude-x", messages: [{ role: "user", content: "It's $HOME\nJSON" }] };
    const code = callAsCode(call("anthropic", "claude-x"), messages, {
      proxyUrl: "http://127.0.0.1:4173",
      endpoint: {
        url: "https://api.anthropic.com/v1/messages",
        headers: { "x-api-key": "$ANTHROPIC_API_KEY", "anthropic-version": "2023-06-01" },
      },
      payload,
    });
    expect(code.target).toBe("provider");
    const { args, body } = runCurl(code.curl, { ANTHROPIC_API_KEY: "from-env" });
    expect(JSON.parse(body)).toEqual(payload);
    expect(args).toContain("x-api-key: from-env");
    expect(args).toContain("https://api.anthropic.com/v1/messages");
  });

  it("goes through the proxy when no payload was captured (the offline model), with the request the page sent", () => {
    const code = callAsCode(call("mirror", "mirror"), messages, { proxyUrl: "http://127.0.0.1:4173/" });
    expect(code.target).toBe("proxy");
    expect(code.typescript).toBeUndefined();
    const { args, body } = runCurl(code.curl, { PI_PLAYGROUND_TOKEN: "tok" });
    expect(JSON.parse(body)).toEqual({
      model: { provider: "mirror", id: "mirror" },
      context: { messages },
      options: { reasoning: "low", maxTokens: 1000 },
    });
    expect(args).toEqual([
      "-N",
      "http://127.0.0.1:4173/api/stream",
      "-H",
      "Authorization: Bearer tok",
      "-H",
      "Content-Type: application/json",
      "--data-binary",
      "@-",
    ]);
  });

  it("writes TypeScript that type-checks against pi-ai", () => {
    const code = callAsCode(call("anthropic", "claude-x"), messages, { proxyUrl: "http://x" });
    const dir = join(process.cwd(), "node_modules", ".cache", "call-code");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "snippet.ts");
    writeFileSync(file, code.typescript ?? "");
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(problems).toEqual([]);
  }, 60_000);
});
