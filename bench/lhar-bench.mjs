// Importing a large LHAR file in Chromium: the longest main-thread task while a file of thousands of calls
// is read, validated against the LHAR schema, turned into calls (each with its model view rebuilt from its
// request body) and stored, against the same import of a 1,000-entry file.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { instrument } from "./app-page.mjs";

const out = fileURLToPath(new URL("./.out/", import.meta.url));

/** One LHAR entry as Context Lens writes it, with an OpenAI chat completions request body. */
function entry(index) {
  const id = `call-${index}`;
  const messages = [
    { role: "system", content: "You are a coding agent. Use the tools." },
    { role: "user", content: `Fix the failing test number ${index}.` },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: `c${index}`, type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
      ],
    },
    { role: "tool", tool_call_id: `c${index}`, content: "export const a = 1;\n".repeat(20) },
  ];
  return {
    type: "entry",
    id,
    trace_id: "0".repeat(32),
    span_id: index.toString(16).padStart(16, "0"),
    parent_span_id: null,
    timestamp: new Date(1_700_000_000_000 + index * 1_000).toISOString(),
    sequence: index + 1,
    source: {
      tool: "pi",
      tool_version: null,
      agent_role: "main",
      collector: "bench",
      collector_version: "1",
    },
    gen_ai: {
      system: "openai",
      request: { model: "gpt-4o", max_tokens: 1000, temperature: null, top_p: null, stop_sequences: [] },
      response: { model: null, finish_reasons: ["toolUse"] },
      usage: { input_tokens: 900 + index, output_tokens: 20, total_tokens: 920 + index },
    },
    usage_ext: { cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0.001 },
    http: {
      method: "POST",
      url: null,
      status_code: 200,
      api_format: "openai-completions",
      stream: true,
      request_headers: {},
      response_headers: {},
    },
    timings: { send_ms: 0, wait_ms: 300, receive_ms: 200, total_ms: 500, tokens_per_second: 40 },
    transfer: { request_bytes: 1_200, response_bytes: 0, compressed: false },
    context_lens: {
      window_size: 128_000,
      utilization: 0.01,
      system_tokens: 10,
      tools_tokens: 0,
      messages_tokens: 890 + index,
      composition: [
        { category: "tool_results", tokens: 700 + index, pct: 77, count: 1 },
        { category: "user_text", tokens: 150, pct: 16, count: 1 },
        { category: "system_prompt", tokens: 10, pct: 1, count: 1 },
        { category: "tool_calls", tokens: 40, pct: 4, count: 1 },
      ],
      growth: { tokens_added_this_turn: null, cumulative_tokens: 900 + index, compaction_detected: false },
      security: { alerts: [], summary: { high: 0, medium: 0, info: 0 } },
    },
    raw: { request_body: { model: "gpt-4o", messages, stream: true }, response_body: null },
  };
}

export function lharLines(count) {
  const session = {
    type: "session",
    trace_id: "0".repeat(32),
    started_at: new Date(0).toISOString(),
    tool: "pi",
    model: "gpt-4o",
  };
  return `${[session, ...Array.from({ length: count }, (_, index) => entry(index))].map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** Import `text` as a file in a fresh page; the longest task from choosing the file to the session shown. */
async function importLongestTask(browser, baseURL, path, count) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  try {
    await page.goto(baseURL);
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await page.evaluate(() => {
      window.__bench.longTasks = [];
      window.__bench.recording = true;
    });
    const started = Date.now();
    // From disk: a file of megabytes handed over as a buffer takes Playwright longer than the import.
    await page.getByLabel("Import a session file").setInputFiles(path);
    await page
      .getByRole("region", { name: "Calls, no facts" })
      .getByText(`This session has ${count} model calls`)
      .waitFor({ timeout: 600_000 });
    const wallMs = Date.now() - started;
    const longest = await page.evaluate(() => {
      window.__bench.recording = false;
      return Math.max(0, ...window.__bench.longTasks.map((task) => task.duration));
    });
    return { longest, wallMs };
  } finally {
    await context.close();
  }
}

export async function lharBenchmarks({ browser, baseURL, runs, record }) {
  console.log("The app in Chromium: importing a large LHAR file…");
  const sizes = { small: 1_000, large: 10_000 };
  const texts = { small: lharLines(sizes.small), large: lharLines(sizes.large) };
  const results = { small: [], large: [] };
  await mkdir(out, { recursive: true });
  const paths = { small: join(out, "bench-small.lhar"), large: join(out, "bench-large.lhar") };
  for (const key of ["small", "large"]) await writeFile(paths[key], texts[key]);
  for (let run = 0; run < runs; run++)
    for (const key of ["small", "large"])
      results[key].push(await importLongestTask(browser, baseURL, paths[key], sizes[key]));
  const pick = (key, field) => results[key].map((result) => result[field]);
  const work = `${sizes.large.toLocaleString("en-US")} entries (${(texts.large.length / 1e6).toFixed(1)} MB) as .lhar lines`;
  record(
    "importing an LHAR file: longest main-thread task",
    work,
    pick("large", "longest"),
    `the same import of ${sizes.small.toLocaleString("en-US")} entries`,
    pick("small", "longest"),
    { goal: "≤ 100 ms" },
  );
  record(
    "importing an LHAR file: until its session is shown",
    work,
    pick("large", "wallMs"),
    `the same import of ${sizes.small.toLocaleString("en-US")} entries`,
    pick("small", "wallMs"),
  );
}
