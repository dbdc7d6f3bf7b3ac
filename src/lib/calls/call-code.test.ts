import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createModels, createProvider, type Message, type Model } from "@earendil-works/pi-ai";
import { openAICompletionsApi } from "@earendil-works/pi-ai/api/openai-completions.lazy";
import { startFixtureServer } from "../../../e2e/fixtures/openai-fixture-server.mjs";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CallRecord } from "../storage/records.ts";
import { callAsCode, type ProviderEndpoint } from "./call-code.ts";

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function call(provider: string, modelId: string, extra: Partial<CallRecord> = {}): CallRecord {
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
    ...extra,
  };
}

// Quotes, a heredoc-looking line and a dollar sign: nothing of it may be touched by the shell.
const messages: Message[] = [
  { role: "system", content: "It's $HOME\nJSON\n`x`", timestamp: 0 },
  { role: "user", content: [{ type: "text", text: "say 'hi' \"there\"" }], timestamp: 1 },
];

const OWN = { url: "http://127.0.0.1:4173", kind: "own" } as const;

/** A folder for this file's scripts and markers, inside the project so snippets resolve its node_modules. */
const scratch = join(process.cwd(), "node_modules", ".cache", `call-code-${process.pid}`);
beforeAll(() => mkdirSync(scratch, { recursive: true }));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Run a shell snippet with `curl` replaced by a function that records its arguments and prints its body. */
function runCurl(command: string, env: Record<string, string> = {}): { args: string[]; body: string } {
  const argsFile = join(scratch, "curl-args.txt");
  const script = `curl() { printf '%s\\n' "$@" > "$ARGS_FILE"; cat; }\n${command}\n`;
  const body = execFileSync("bash", ["-c", script], {
    cwd: scratch,
    env: { ...process.env, ...env, ARGS_FILE: argsFile },
    encoding: "utf8",
    input: "",
  });
  const args = execFileSync("cat", [argsFile], { encoding: "utf8" }).split("\n").filter(Boolean);
  return { args, body };
}

/** The type errors of TypeScript snippets, checked against the installed pi-ai's types. */
function typeErrors(...sources: string[]): string[] {
  const files = sources.map((source, index) => {
    const file = join(scratch, `snippet-${index}.ts`);
    writeFileSync(file, source);
    return file;
  });
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

/** The kinds of a TypeScript snippet's top-level statements: what would run, whatever the strings say. */
function statementKinds(source: string): string[] {
  const file = ts.createSourceFile("snippet.ts", source, ts.ScriptTarget.ES2022, true);
  return file.statements.map((statement) => ts.SyntaxKind[statement.kind]);
}

// bash, curl, node and the TypeScript compiler start as processes: a busy machine can take many seconds.
vi.setConfig({ testTimeout: 120_000 });

describe("callAsCode", () => {
  it("sends the captured payload to the provider, the key from the environment, the body untouched by the shell", () => {
    const payload = { model: "claude-x", messages: [{ role: "user", content: "It's $HOME\nJSON" }] };
    const code = callAsCode(call("anthropic", "claude-x"), messages, {
      proxy: OWN,
      endpoint: {
        url: "https://api.anthropic.com/v1/messages",
        headers: { "x-api-key": "$ANTHROPIC_API_KEY", "anthropic-version": "2023-06-01" },
      },
      payload,
    });
    expect(code.target).toBe("provider");
    expect(code.curl).toContain("set ANTHROPIC_API_KEY first");
    const { args, body } = runCurl(code.curl, { ANTHROPIC_API_KEY: "from-env" });
    expect(JSON.parse(body)).toEqual(payload);
    expect(args).toContain("x-api-key: from-env");
    expect(args).toContain("anthropic-version: 2023-06-01");
    expect(args).toContain("https://api.anthropic.com/v1/messages");
  });

  it("goes through the page's own server when no payload was captured, fetching its token from /api/session", () => {
    const code = callAsCode(call("mirror", "mirror"), messages, { proxy: { ...OWN, url: `${OWN.url}/` } });
    expect(code.target).toBe("proxy");
    expect(code.typescript).toBeUndefined();
    expect(code.curl).not.toContain("printed at start");
    expect(code.curl).toContain("curl -s 'http://127.0.0.1:4173/api/session'");
    const { args, body } = runCurl(code.curl);
    expect(JSON.parse(body)).toEqual({
      model: { provider: "mirror", id: "mirror" },
      context: { messages },
      options: { reasoning: "low", maxTokens: 1000 },
    });
    expect(args.slice(0, 2)).toEqual(["-N", "http://127.0.0.1:4173/api/stream"]);
    expect(args.slice(4)).toEqual(["-H", "Content-Type: application/json", "--data-binary", "@-"]);
  });

  it("names the proxy in use, not the page's address, behind a proxy on another origin", () => {
    const code = callAsCode(call("mirror", "mirror"), messages, {
      proxy: { url: "http://127.0.0.1:4180", kind: "remote" },
    });
    expect(code.curl).toContain("PROXY_TOKEN");
    expect(code.curl).not.toContain("/api/session");
    const { args } = runCurl(code.curl, { PI_PLAYGROUND_TOKEN: "tok" });
    expect(args.slice(0, 4)).toEqual([
      "-N",
      "http://127.0.0.1:4180/api/stream",
      "-H",
      "Authorization: Bearer tok",
    ]);
  });

  it("says that the offline model answered in the page when no proxy is in use, and how to send it through one", () => {
    const code = callAsCode(call("mirror", "mirror"), messages, { proxy: undefined });
    expect(code.curl).toContain("this page has no proxy, the offline model answered in the page");
    expect(runCurl(code.curl).args[1]).toBe("http://127.0.0.1:4173/api/stream");
  });

  it("repeats the recorded payload with curl: the loopback server receives a body equal to what pi-ai sent", async () => {
    const fixture = await startFixtureServer(0);
    try {
      const baseUrl = `http://127.0.0.1:${fixture.port}/v1`;
      const model: Model<"openai-completions"> = {
        id: "fixture-tools",
        name: "fixture-tools",
        api: "openai-completions",
        provider: "local",
        baseUrl,
        reasoning: false,
        input: ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 65_536,
        maxTokens: 1_000,
      };
      const models = createModels({
        authContext: { env: async () => undefined, fileExists: async () => false },
      });
      models.setProvider(
        createProvider({
          id: "local",
          name: "Loopback fixture",
          baseUrl,
          auth: { apiKey: { name: "fixture", resolve: async () => ({ auth: { apiKey: "from-pi-ai" } }) } },
          models: [model],
          api: openAICompletionsApi(),
        }),
      );
      let recorded: unknown;
      const sent = [{ role: "user" as const, content: "It's $HOME and `x`\nJSON", timestamp: 1 }];
      await models
        .streamSimple(
          model,
          { messages: sent },
          { maxTokens: 200, onPayload: (payload) => void (recorded = payload) },
        )
        .result();
      expect(fixture.requests).toHaveLength(1);

      const code = callAsCode(call("local", "fixture-tools"), sent, {
        proxy: OWN,
        endpoint: {
          url: `${baseUrl}/chat/completions`,
          headers: { Authorization: "Bearer $LOCAL_OPENAI_API_KEY" },
        },
        // As the proxy keeps it: serialized.
        payload: JSON.parse(JSON.stringify(recorded)) as unknown,
      });
      // Not execFileSync: the fixture answers from this very process.
      await promisify(execFile)("bash", ["-c", code.curl], {
        env: { ...process.env, LOCAL_OPENAI_API_KEY: "from-env" },
        encoding: "utf8",
      });
      expect(fixture.requests).toHaveLength(2);
      const [byPiAi, byCurl] = fixture.requests;
      expect(byCurl?.body).toEqual(byPiAi?.body);
      expect(byCurl?.body).toEqual(recorded);
      expect(byCurl?.headers.authorization).toBe("Bearer from-env");
    } finally {
      await fixture.close();
    }
  });

  it("writes TypeScript that type-checks against pi-ai", () => {
    const code = callAsCode(call("anthropic", "claude-x"), messages, { proxy: OWN });
    expect(typeErrors(code.typescript ?? "")).toEqual([]);
  }, 60_000);
});

describe("as code turns data into code", () => {
  const marker = () => join(scratch, "pwned");
  const hostileIds = [
    "x\nrequire('child_process').execSync('touch pwned')",
    'x"); globalThis.__pwned = 1; ("',
    "x\u2028require('child_process').execSync('touch pwned')",
    "x\r\nrequire('child_process').execSync('touch pwned') //",
    "x*/ require('child_process').execSync('touch pwned') /*",
    "x`${require('child_process').execSync('touch pwned')}`",
  ];

  it("keeps every hostile model id a string in the TypeScript: same statements, still type-checks, runs nothing", () => {
    const ordinary = callAsCode(call("anthropic", "claude-x"), messages, { proxy: OWN }).typescript ?? "";
    const sources = hostileIds.map(
      (modelId) => callAsCode(call("anthropic", modelId), messages, { proxy: OWN }).typescript ?? "",
    );
    // The same statements as for an ordinary id: a comment stayed a comment, a string a string.
    for (const source of sources) expect(statementKinds(source)).toEqual(statementKinds(ordinary));
    expect(typeErrors(...sources)).toEqual([]);
    // Run them: pi-ai does not know the models, so each stops there, and nothing else ran.
    const files = sources.map((source, index) => {
      const file = join(scratch, `hostile-${index}.mjs`);
      writeFileSync(
        file,
        ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext } }).outputText,
      );
      return file;
    });
    const runner = join(scratch, "run-all.mjs");
    writeFileSync(
      runner,
      `for (const file of ${JSON.stringify(files)}) {\n  try { await import(file); console.log("ran"); } catch (error) { console.log(JSON.stringify(error.message)); }\n}\n`,
    );
    const output = execFileSync(process.execPath, [runner], { cwd: scratch, encoding: "utf8" });
    const lines = output.trim().split("\n");
    expect(lines).toEqual(
      hostileIds.map((modelId) =>
        JSON.stringify(`anthropic/${modelId} is not a built-in model of this pi-ai`),
      ),
    );
    expect(existsSync(marker())).toBe(false);
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
  }, 120_000);

  it("keeps a hostile sequence number and provider inside the TypeScript comment", () => {
    const hostile = call("anthropic\nglobalThis.x = 1", "claude-x", {
      seq: "1\nrequire('child_process').execSync('touch pwned')" as unknown as number,
    });
    const source = callAsCode(hostile, messages, { proxy: OWN }).typescript ?? "";
    const ordinary = callAsCode(call("anthropic", "claude-x"), messages, { proxy: OWN }).typescript ?? "";
    expect(statementKinds(source)).toEqual(statementKinds(ordinary));
  });

  const hostileHeaders: [string, string][] = [
    ["x-trace", "$(touch pwned)"],
    ["x-trace", "`touch pwned`"],
    ["x-trace", "'; touch pwned; '"],
    ["x-trace", '"; touch pwned; "'],
    ["x-trace", "Bearer $(touch pwned)"],
    ["x-trace", "\\$HOME"],
  ];

  it.each(hostileHeaders)(
    "sends the header %s: %j as the characters it is, running nothing",
    (name, value) => {
      const endpoint: ProviderEndpoint = {
        url: "https://api.openai.com/v1/chat/completions",
        headers: { Authorization: "Bearer $OPENAI_API_KEY", [name]: value },
      };
      const code = callAsCode(call("openai", "gpt-x"), messages, { proxy: OWN, endpoint, payload: { a: 1 } });
      const { args, body } = runCurl(code.curl, { OPENAI_API_KEY: "from-env", HOME: "/home/someone" });
      expect(existsSync(marker())).toBe(false);
      expect(args).toContain(`${name}: ${value}`);
      expect(args).toContain("Authorization: Bearer from-env");
      expect(JSON.parse(body)).toEqual({ a: 1 });
    },
  );

  it.each([
    ["a key on another host", "https://api.openai.com.evil.example/v1", "Bearer $OPENAI_API_KEY"],
    ["any variable as a header", "https://api.openai.com/v1", "$HOME"],
    ["a key over plain http", "http://api.openai.com/v1", "Bearer $OPENAI_API_KEY"],
    ["a local key to another machine", "http://192.0.2.7:11434/v1", "Bearer $LOCAL_OPENAI_API_KEY"],
  ])("never sends %s from the environment, and says why", (_what, url, value) => {
    const endpoint: ProviderEndpoint = { url, headers: { Authorization: value } };
    const code = callAsCode(call("openai", "gpt-x"), messages, { proxy: OWN, endpoint, payload: {} });
    const { args } = runCurl(code.curl, { OPENAI_API_KEY: "secret-key", LOCAL_OPENAI_API_KEY: "secret-key" });
    expect(args.join("\n")).not.toMatch(/secret-key|Authorization|\/root|\/home/);
    expect(code.curl).toMatch(
      /^# Left out Authorization: it would send \$[A-Z_]+ to .*, which is not where that key goes\.$/m,
    );
  });

  it("sends a local server's key to that server on this machine", () => {
    const endpoint: ProviderEndpoint = {
      url: "http://127.0.0.1:11434/v1/chat/completions",
      headers: { Authorization: "Bearer $LOCAL_OPENAI_API_KEY" },
    };
    const code = callAsCode(call("local", "m"), messages, { proxy: OWN, endpoint, payload: {} });
    expect(runCurl(code.curl, { LOCAL_OPENAI_API_KEY: "k" }).args).toContain("Authorization: Bearer k");
  });

  it("leaves out a header whose name or value would start another, saying so in a comment that stays one", () => {
    const endpoint: ProviderEndpoint = {
      url: "https://api.openai.com/v1/chat/completions",
      headers: {
        "x-ok": "fine",
        "x-split": "a\r\nX-Injected: 1",
        "bad name\ntouch pwned": "v",
      },
    };
    const code = callAsCode(call("openai", "gpt-x"), messages, { proxy: OWN, endpoint, payload: {} });
    const { args } = runCurl(code.curl);
    expect(existsSync(marker())).toBe(false);
    expect(args).toContain("x-ok: fine");
    expect(args.join("\n")).not.toContain("X-Injected");
    expect(code.curl.match(/^# Left out a header/gm)).toHaveLength(2);
  });

  it.each([
    ["an address with a quote and a command", "https://api.example.com/v1/'$(touch pwned)'"],
    ["an address that is an option", "-o/tmp/pwned"],
    ["a local file", "file:///etc/passwd"],
  ])("never lets %s run anything or reach a file", (_what, url) => {
    const endpoint: ProviderEndpoint = { url, headers: {} };
    const code = callAsCode(call("openai", "gpt-x"), messages, { proxy: OWN, endpoint, payload: {} });
    const { args } = runCurl(code.curl);
    expect(existsSync(marker())).toBe(false);
    const address = args[1] ?? "";
    expect(address === url || address === "http://127.0.0.1:4173/api/stream").toBe(true);
    if (address === url) expect(new URL(url).protocol).toBe("https:");
  });

  it("keeps a hostile proxy address out of the commands", () => {
    const code = callAsCode(call("mirror", "mirror"), messages, {
      proxy: { url: "http://127.0.0.1:4180/'$(touch pwned)'\n#", kind: "remote" },
    });
    runCurl(code.curl, { PI_PLAYGROUND_TOKEN: "tok" });
    expect(existsSync(marker())).toBe(false);
  });
});

describe("the scratch folder", () => {
  it("is a real folder the snippets ran in", () => {
    // A marker written by a test helper lands there, so the checks above would have seen one.
    const probe = mkdtempSync(join(scratch, "probe-"));
    execFileSync("bash", ["-c", "touch pwned"], { cwd: probe });
    expect(existsSync(join(probe, "pwned"))).toBe(true);
  });
});
