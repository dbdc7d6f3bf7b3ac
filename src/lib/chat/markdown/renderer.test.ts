import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_MARKDOWN_LIMITS, markdownLimits, type MarkdownLimits } from "./limits.ts";
import type { RenderRequest, RenderResponse } from "./protocol.ts";
import { plainParagraphs } from "./plain-paragraphs.ts";
import { createBlockRenderer, hasFencedCode } from "./render.ts";
import { MarkdownRenderer, type MarkdownOutcome, type WorkerLike } from "./renderer.ts";

/** A worker that records what it is asked and answers only when the test says so. */
class FakeWorker implements WorkerLike {
  readonly received: RenderRequest[] = [];
  terminated = false;
  onmessage: ((event: MessageEvent<RenderResponse>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  /** Whether the worker says it is parsing as soon as asked (false: it is still loading). */
  ready = true;
  postMessage(message: RenderRequest): void {
    this.received.push(message);
    if (this.ready) this.startParsing();
  }
  /** Say "parsing now" for the last request, as the worker does once it has loaded what it needs. */
  startParsing(): void {
    const request = this.received.at(-1);
    if (!request) throw new Error("nothing asked");
    this.onmessage?.({ data: { id: request.id, parsing: true } } as MessageEvent<RenderResponse>);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** Answer the last request with a real render, as the worker would. */
  answer(render = createBlockRenderer()): void {
    const request = this.received.at(-1);
    if (!request) throw new Error("nothing to answer");
    this.onmessage?.({
      data: { id: request.id, blocks: render(request.source) },
    } as MessageEvent<RenderResponse>);
  }
}

function setup(limits: Partial<MarkdownLimits> = {}, ready = true) {
  const workers: FakeWorker[] = [];
  const parsedOnMainThread: string[] = [];
  const render = createBlockRenderer();
  const renderer = new MarkdownRenderer({
    renderBlocks: (source) => {
      parsedOnMainThread.push(source);
      return render(source);
    },
    hasFencedCode,
    sanitize: (html) => html,
    createWorker: () => {
      const worker = new FakeWorker();
      worker.ready = ready;
      workers.push(worker);
      return worker;
    },
    limits: { ...DEFAULT_MARKDOWN_LIMITS, ...limits },
  });
  return { renderer, workers, parsedOnMainThread };
}

/** `_a_a_a…`: the parser's emphasis matching is quadratic on it (40 kB took seconds in one render). */
const pathological = (length: number) => "_a".repeat(length / 2);

afterEach(() => vi.useRealTimers());

describe("MarkdownRenderer", () => {
  it("renders a short source on the spot, and remembers it", () => {
    const { renderer, workers, parsedOnMainThread } = setup();
    expect(renderer.now("**bold**")).toEqual({
      outcome: { kind: "html", blocks: ["<p><strong>bold</strong></p>\n"] },
      final: true,
    });
    renderer.now("**bold**");
    expect(parsedOnMainThread).toEqual(["**bold**"]);
    expect(workers).toHaveLength(0);
  });

  it("shows short plain prose without the parser or the sanitizer, and leaves long plain prose to the worker", () => {
    const sanitized: string[] = [];
    const parsed: string[] = [];
    const workers: FakeWorker[] = [];
    const render = createBlockRenderer();
    const renderer = new MarkdownRenderer({
      renderBlocks: (source) => (parsed.push(source), render(source)),
      renderPlain: plainParagraphs,
      hasFencedCode,
      sanitize: (html) => (sanitized.push(html), html),
      createWorker: () => {
        const worker = new FakeWorker();
        workers.push(worker);
        return worker;
      },
      limits: { ...DEFAULT_MARKDOWN_LIMITS, syncMaxChars: 500 },
    });
    const prose = "A plain sentence, with nothing to format.\n\n".repeat(10).trim();
    expect(renderer.now(prose)).toEqual({ outcome: { kind: "html", blocks: render(prose) }, final: true });
    expect(renderer.now("**bold**")?.outcome).toEqual({
      kind: "html",
      blocks: ["<p><strong>bold</strong></p>\n"],
    });
    expect(parsed).toEqual(["**bold**"]);
    expect(sanitized).toEqual(["<p><strong>bold</strong></p>\n"]);
    // Over the main thread's limit, plain or not: the worker's.
    expect(renderer.now(`${prose}\n\n${prose}`)).toBeUndefined();
    expect(workers).toHaveLength(0);
  });

  it("streams a 40 kB pathological reply with the main thread parsing only short prefixes", () => {
    const { renderer, workers, parsedOnMainThread } = setup();
    const requester = {};
    const delivered: string[] = [];
    const source = pathological(40_000);
    // A streamed reply asks for a render of its whole text as it grows, 200 characters at a time.
    for (let length = 200; length <= source.length; length += 200) {
      const text = source.slice(0, length);
      const now = renderer.now(text);
      if (!now?.final) renderer.request(requester, text, (_outcome, rendered) => delivered.push(rendered));
      // The worker is slower than the stream: it answers every tenth update (cheaply: it is a fake).
      if (length % 2_000 === 0) workers[0]?.answer(() => ["<p>…</p>"]);
    }
    // The work the main thread did is bounded by the limit, whatever the reply's length.
    expect(Math.max(...parsedOnMainThread.map((text) => text.length))).toBeLessThanOrEqual(1_000);
    expect(parsedOnMainThread.reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(5 * 1_000);
    // Everything longer went to one worker, one request at a time, always the newest text.
    expect(workers).toHaveLength(1);
    const sent = workers[0]?.received ?? [];
    expect(sent).toHaveLength(21);
    expect(sent.at(-1)?.source).toBe(source);
    expect(delivered.every((text) => text.length > 1_000)).toBe(true);
  });

  it("sanitizes only the new end of a long paragraph as it streams, not the whole paragraph again", () => {
    // The page's clock stands still: a render that took over 50 ms (a busy machine) would otherwise make
    // the renderer rest before the next request, and the test counts what each answer sanitized.
    vi.useFakeTimers({ toFake: ["performance", "setTimeout", "clearTimeout"] });
    const sanitized: string[] = [];
    const workers: FakeWorker[] = [];
    const renderer = new MarkdownRenderer({
      renderBlocks: createBlockRenderer(),
      hasFencedCode,
      sanitize: (html) => {
        sanitized.push(html);
        return html;
      },
      createWorker: () => {
        const worker = new FakeWorker();
        workers.push(worker);
        return worker;
      },
      limits: DEFAULT_MARKDOWN_LIMITS,
    });
    const requester = {};
    const outcomes: MarkdownOutcome[] = [];
    // A reply of one paragraph, no blank line, streamed to 100 kB in pieces of 4.2 kB, each answered.
    const piece = "lorem ipsum ".repeat(350);
    let reply = "";
    const sanitizedPerAnswer: number[] = [];
    for (let count = 0; count < 24; count++) {
      reply += piece;
      renderer.request(requester, reply, (outcome) => outcomes.push(outcome));
      const before = sanitized.length;
      workers[0]?.answer();
      sanitizedPerAnswer.push(sanitized.slice(before).reduce((sum, html) => sum + html.length, 0));
    }
    const last = outcomes.at(-1);
    expect(last?.kind === "html" && last.blocks.length).toBeGreaterThan(10);
    // Each answer sanitized what the paragraph gained and the piece it grew into, a few pieces at most:
    // the page's work per update does not grow with the paragraph.
    expect(Math.max(...sanitizedPerAnswer.slice(1))).toBeLessThan(4 * piece.length);
  });

  it("ends a worker that overruns its time budget and shows the rest of that reply as plain text", () => {
    vi.useFakeTimers();
    const { renderer, workers } = setup({ timeBudgetMs: 1_000 });
    const requester = {};
    const outcomes: MarkdownOutcome[] = [];
    renderer.request(requester, pathological(20_000), (outcome) => outcomes.push(outcome));
    vi.advanceTimersByTime(999);
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(outcomes).toEqual([{ kind: "plain", reason: "too-slow" }]);
    expect(workers[0]?.terminated).toBe(true);
    // The reply keeps streaming, or is shown again when the stream ends: plain text at once, no worker asked.
    for (const longer of [pathological(20_200), pathological(30_000)]) {
      expect(renderer.now(longer)).toEqual({ outcome: { kind: "plain", reason: "too-slow" }, final: true });
    }
    // Another reply gets a fresh worker, once the worker has rested as long as the overrun lasted.
    renderer.request({}, "# heading\n\n" + "text ".repeat(300), (outcome) => outcomes.push(outcome));
    expect(workers).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(workers).toHaveLength(2);
    workers[1]?.answer();
    expect(outcomes.at(-1)).toMatchObject({ kind: "html" });
  });

  it("does not count the worker's loading against the time budget, only its parse", () => {
    vi.useFakeTimers();
    const { renderer, workers } = setup({ timeBudgetMs: 1_000, loadBudgetMs: 30_000 }, false);
    const outcomes: MarkdownOutcome[] = [];
    const source = "```ts\nconst a = 1;\n```\n\n" + "text ".repeat(300);
    renderer.request({}, source, (outcome) => outcomes.push(outcome));
    // Loading highlighting on a busy machine: five seconds, far over the parse's budget.
    vi.advanceTimersByTime(5_000);
    expect(outcomes).toEqual([]);
    expect(workers[0]?.terminated).toBe(false);
    workers[0]?.startParsing();
    vi.advanceTimersByTime(999);
    workers[0]?.answer();
    expect(outcomes).toEqual([expect.objectContaining({ kind: "html" })]);
  });

  it("ends a worker that never gets ready to parse, after the load budget, as not formatted", () => {
    vi.useFakeTimers();
    const { renderer, workers } = setup({ loadBudgetMs: 30_000 }, false);
    const outcomes: MarkdownOutcome[] = [];
    renderer.request({}, "# heading\n\n" + "text ".repeat(300), (outcome) => outcomes.push(outcome));
    vi.advanceTimersByTime(29_999);
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(outcomes).toEqual([{ kind: "plain", reason: "failed" }]);
    expect(workers[0]?.terminated).toBe(true);
  });

  it("shows text over the size limit as plain text without parsing it anywhere", () => {
    const { renderer, workers, parsedOnMainThread } = setup({ maxChars: 5_000 });
    expect(renderer.now("x".repeat(5_001))).toEqual({
      outcome: { kind: "plain", reason: "too-large" },
      final: true,
    });
    expect(parsedOnMainThread).toEqual([]);
    expect(workers).toHaveLength(0);
  });

  it("asks the worker to highlight a short source with code, showing it unhighlighted meanwhile", () => {
    const { renderer } = setup();
    const now = renderer.now("```ts\nconst a = 1;\n```");
    expect(now?.final).toBe(false);
    expect(now?.outcome).toMatchObject({ kind: "html" });
  });

  it("lets requesters take turns and drops a cancelled one's answer", () => {
    const { renderer, workers } = setup();
    const [first, second] = [{}, {}];
    const long = (label: string) => `${label} ${"words ".repeat(300)}`;
    const got: string[] = [];
    renderer.request(first, long("one"), (_outcome, source) => got.push(source.slice(0, 3)));
    renderer.request(second, long("two"), (_outcome, source) => got.push(source.slice(0, 3)));
    renderer.cancel(first);
    workers[0]?.answer();
    workers[0]?.answer();
    expect(got).toEqual(["two"]);
    expect(workers[0]?.received.map((request) => request.source.slice(0, 3))).toEqual(["one", "two"]);
  });
});

describe("markdownLimits", () => {
  it("reads build-time variables and falls back to the defaults", () => {
    expect(markdownLimits({})).toEqual(DEFAULT_MARKDOWN_LIMITS);
    expect(markdownLimits({ VITE_MARKDOWN_MAX_CHARS: "5000", VITE_MARKDOWN_TIME_BUDGET_MS: "nope" })).toEqual(
      {
        ...DEFAULT_MARKDOWN_LIMITS,
        maxChars: 5_000,
      },
    );
    expect(markdownLimits({ VITE_MARKDOWN_LOAD_BUDGET_MS: "60000" }).loadBudgetMs).toBe(60_000);
  });
});
