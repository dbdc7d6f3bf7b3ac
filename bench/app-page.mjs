// The app in Chromium as the benchmarks drive it: the proxy's stream replaced by an in-page SSE stream at a
// fixed rate (so the model's pace is exact and the network is not measured), sessions planted in IndexedDB,
// and the page's main-thread time, long tasks and frames read from Chromium's own counters.

/** Installed before the app loads: an in-page `/api/stream`, long-task and frame recording. */
export function instrument() {
  const bench = {
    longTasks: [],
    frames: [],
    recording: false,
    /**
     * Each request to `/api/stream` gets a stream of its own at this pace: `tokens` tokens every
     * `intervalMs`, or `perRequest[n]` tokens for the n-th request since `expectStream` (several requests at
     * once, as variants send, stream in parallel). `streams` is how many requests one measure waits for.
     */
    stream: { tokens: 100, intervalMs: 30, streams: 1 },
    /** When the first token of the current streams arrived: before it, the page is sending the request. */
    firstTokenAt: Infinity,
    /** Settled as the first token of any stream and the last token of every stream are sent. */
    firstToken: Promise.resolve(),
    lastToken: Promise.resolve(),
    finished: Promise.resolve(),
    /** Requests since `expectStream`. */
    requests: 0,
    /**
     * Make new first-token, last-token and finished promises for the next `stream.streams` streams: before
     * the click, so none of the last measure's is awaited.
     */
    expectStream() {
      const expected = bench.stream.streams ?? 1;
      bench.requests = 0;
      let lasts = 0;
      let ends = 0;
      bench.firstToken = new Promise((resolve) => (bench.onFirstToken = resolve));
      let lastAll;
      bench.lastToken = new Promise((resolve) => (lastAll = resolve));
      bench.onLastToken = () => {
        if (++lasts >= expected) lastAll();
      };
      let finishAll;
      bench.finished = new Promise((resolve) => (finishAll = resolve));
      bench.onFinished = () => {
        if (++ends >= expected) finishAll();
      };
    },
    onFirstToken: () => undefined,
    onLastToken: () => undefined,
    onFinished: () => undefined,
  };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (bench.recording) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  // The frame counter asks for every frame, as a page with an animation does. The rows have been measured
  // so from the start, and some move without it (opening the inspector at 10,000 facts took 165 ms where it
  // took 62 in the run before). A page waiting its turn among pages open side by side (the streaming rows)
  // rests: it asks for no frame, and costs the others nothing.
  let resting = false;
  let counting = true;
  const frame = (now) => {
    if (bench.recording) bench.frames.push(now);
    if (resting && !bench.recording) {
      counting = false;
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  /** Stop asking for frames (`true`) until called with `false`. */
  bench.rest = (on) => {
    resting = on;
    if (!on && !counting) {
      counting = true;
      requestAnimationFrame(frame);
    }
  };

  const realFetch = window.fetch.bind(window);
  const usage = {
    input: 10,
    output: 10,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 20,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  // The model's side of the streams runs in a worker, as a server would run elsewhere: its timers, JSON and
  // encoding are not the page's work. The page receives each stream's chunks through a transferred stream,
  // one task per chunk, as it would receive them from the network. Each request is a stream of its own,
  // with its own timer, told apart by an id.
  const modelSource = `onmessage = (event) => {
    const { id, tokens, intervalMs, delta, usage } = event.data;
    const encoder = new TextEncoder();
    let controller;
    const body = new ReadableStream({ start: (c) => (controller = c) });
    postMessage({ id, body }, [body]);
    const now = () => performance.timeOrigin + performance.now();
    const send = (chunk) => controller.enqueue(encoder.encode("data: " + JSON.stringify(chunk) + "\\n\\n"));
    send({ type: "start" });
    send({ type: "text_start", contentIndex: 0 });
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= tokens) {
        clearInterval(timer);
        send({ type: "text_end", contentIndex: 0 });
        send({ type: "done", reason: "stop", usage });
        controller.close();
        postMessage({ id, finished: true });
        return;
      }
      sent++;
      const text = delta ?? (sent % 12 === 0 ? "word.\\n\\n" : "word ");
      send({ type: "text_delta", contentIndex: 0, delta: text });
      if (sent === 1) postMessage({ id, first: now() });
      if (sent === tokens) postMessage({ id, last: true });
    }, intervalMs);
  };`;
  let model;
  let nextId = 0;
  /** What each stream in flight reports to: its body's promise and its token marks. */
  const streams = new Map();
  window.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith("/api/stream")) return realFetch(input, init);
    const { tokens, intervalMs, delta, perRequest } = bench.stream;
    const count = perRequest?.[bench.requests] ?? tokens;
    bench.requests++;
    if (!model) {
      model = new Worker(URL.createObjectURL(new Blob([modelSource], { type: "text/javascript" })));
      model.onmessage = ({ data }) => {
        const stream = streams.get(data.id);
        if (!stream) return;
        if (data.body) stream.resolve(data.body);
        if (data.first !== undefined) {
          // The worker's clock has its own origin: its absolute time, in the page's.
          bench.firstTokenAt = Math.min(bench.firstTokenAt, data.first - performance.timeOrigin);
          bench.onFirstToken();
        }
        if (data.last) bench.onLastToken();
        if (data.finished) {
          streams.delete(data.id);
          bench.onFinished();
        }
      };
    }
    const id = nextId++;
    const body = await new Promise((resolve) => {
      streams.set(id, { resolve });
      model.postMessage({ id, tokens: count, intervalMs, delta, usage });
    });
    return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
  };
}

/** Plant a session of `count` facts (the app's own system message first) and make it the current one. */
export async function plantSession(page, count) {
  return page.evaluate(async (size) => {
    const key = "pi-playground:current-session";
    const id = await window.piBench.plantSession(size, localStorage.getItem(key));
    localStorage.setItem(key, id);
    return id;
  }, count);
}

export async function openApp(browser, baseURL, benchBundle, { facts, inspector }) {
  // bypassCSP: the page forbids inline scripts, and the benchmark adds its helpers as one.
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 }, bypassCSP: true });
  await context.addInitScript(instrument);
  await context.addInitScript(
    (open) => localStorage.setItem("pi-playground:inspector", open ? "1" : "0"),
    inspector,
  );
  const page = await context.newPage();
  await page.goto(baseURL);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await page.addScriptTag({ path: benchBundle });
  if (facts > 1) {
    await plantSession(page, facts);
    await page.reload();
    await page.getByRole("textbox", { name: "Message" }).waitFor();
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  return { context, page, cdp };
}

export async function taskSeconds(cdp) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0;
}

/**
 * Stream `tokens` tokens at `intervalMs` into the open session; returns main-thread time, long tasks and
 * frames. Each token is `delta` when given, else a word (with a paragraph break every twelfth).
 */
export async function stream(page, cdp, tokens, intervalMs, delta) {
  await page.getByRole("textbox", { name: "Message" }).fill("benchmark prompt");
  const send = page.getByRole("button", { name: "Send", exact: true });
  await send.waitFor();
  await page.evaluate(() => {
    window.__bench.begin = () =>
      [...document.querySelectorAll("button")]
        .find((candidate) => candidate.textContent?.trim() === "Send")
        .click();
  });
  const result = await measureStream(page, cdp, tokens, intervalMs, delta);
  await send.waitFor({ timeout: 120_000 });
  return result;
}

/**
 * The app's page as it stands, frozen: its DOM and styles without any script (see `openFloorPage`'s
 * `frozen`). Taken after a reply, so the last message in the chat is a reply whose body the frozen page
 * fills with the next stream.
 */
export async function freezeApp(page) {
  return page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true);
    // A copy keeps no scroll positions: each scrolled element carries its own, restored when the page opens
    // (the virtual lists' rows stand far down their scrollers).
    const copied = copy.querySelectorAll("*");
    for (const [index, element] of [...document.documentElement.querySelectorAll("*")].entries())
      if (element.scrollTop > 0 || element.scrollLeft > 0)
        copied[index].setAttribute("data-frozen-scroll", `${element.scrollTop} ${element.scrollLeft}`);
    for (const element of copy.querySelectorAll('script, link[rel="modulepreload"]')) element.remove();
    return `<!doctype html>${copy.outerHTML}`;
  });
}

/**
 * A page without the app, receiving the same stream under the same instruments: what the browser and the
 * benchmark's own instruments cost per frame before the app does anything. It reads the stream and parses
 * its events; with `show`, it also shows the reply's text as plain paragraphs at the app's pace (at most
 * every 25 ms, on a frame), which is the least any chat must do.
 * With `frozen` (from `freezeApp`), the page is the app's own page without its script: the paragraphs take
 * the last message's body, each showing changes only the last paragraph and adds the new ones, and the chat
 * follows the bottom, as the app's does. The least a script can do to show the stream in the app's page: what
 * the browser costs for that page before any of the app's own work. `incremental` shows the paragraphs so on
 * the plain page too.
 * The showing is `window.__bench.showStream` (`start` for each reply, `update` with its text so far), which
 * a page that reads the stream another way (pi's Agent, `agent-floor.ts`) calls in its own `begin`.
 */
export async function openFloorPage(browser, baseURL, { show, frozen, incremental = false }) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 }, bypassCSP: true });
  await context.addInitScript(instrument);
  const url = `${baseURL}/bench-floor`;
  await context.route(url, (route) =>
    route.fulfill({
      contentType: "text/html",
      body:
        frozen ??
        '<!doctype html><html lang="en"><title>Floor</title><main style="max-width: 46rem; margin: auto; font: 15px/1.5 system-ui"><div id="reply"></div></main></html>',
    }),
  );
  const page = await context.newPage();
  await page.goto(url);
  if (frozen) {
    await page.waitForLoadState("load");
    await page.evaluate(() => {
      for (const element of document.querySelectorAll("[data-frozen-scroll]")) {
        const [top, left] = element.getAttribute("data-frozen-scroll").split(" ").map(Number);
        element.scrollTop = top;
        element.scrollLeft = left;
      }
    });
  }
  await page.evaluate(
    ([showing, inPlace]) => {
      const scroller = document.querySelector(".messages");
      const lastMessage = [...document.querySelectorAll(".messages .item")].at(-1);
      const reply =
        document.getElementById("reply") ?? lastMessage?.querySelector(".markdown") ?? lastMessage;
      if (!reply) throw new Error("The frozen page has no message to show the stream in.");
      // In the app's page, the least a script can do: the paragraphs shown stay, the last one's text is set
      // and new ones are added (the app itself renders the last one again), then the chat follows.
      const paragraphsInPlace = inPlace || scroller !== null;
      let text = "";
      let shownAt = Number.NEGATIVE_INFINITY;
      let frame;
      const showText = (time) => {
        if (time - shownAt < 25) {
          frame = requestAnimationFrame(showText);
          return;
        }
        frame = undefined;
        shownAt = time;
        const paragraphs = text.split("\n\n");
        if (!paragraphsInPlace) {
          reply.replaceChildren(
            ...paragraphs.map((paragraph) => {
              const element = document.createElement("p");
              element.textContent = paragraph;
              return element;
            }),
          );
          return;
        }
        const shown = reply.children;
        for (let index = Math.max(0, shown.length - 1); index < paragraphs.length; index++) {
          const element = shown[index] ?? reply.appendChild(document.createElement("p"));
          if (element.textContent !== paragraphs[index]) element.textContent = paragraphs[index];
        }
        if (scroller) scroller.scrollTop = scroller.scrollHeight;
      };
      window.__bench.showStream = {
        start() {
          text = "";
          shownAt = Number.NEGATIVE_INFINITY;
          if (paragraphsInPlace) reply.replaceChildren();
        },
        update(latest) {
          text = latest;
          if (frame === undefined) frame = requestAnimationFrame(showText);
        },
      };
      window.__bench.begin = () =>
        void (async () => {
          const shownStream = window.__bench.showStream;
          shownStream.start();
          const reader = (await fetch("/api/stream", { method: "POST" })).body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          let received = "";
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            const lines = buffer.split("\n");
            buffer = lines.pop() ?? "";
            for (const line of lines) {
              if (!line.startsWith("data: ")) continue;
              const event = JSON.parse(line.slice(6));
              if (event.type !== "text_delta") continue;
              received += event.delta;
              if (showing) shownStream.update(received);
            }
          }
        })();
    },
    [show, incremental],
  );
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  return { context, page, cdp };
}

/**
 * Resolve once the page's main thread has been nearly idle for a while (under 4% busy over 300 ms), or
 * after 60 s. The app does work in slices after a reply and after a session opens (recording the call,
 * estimating tokens while idle); `settled`'s idle callbacks come between those slices, so a stream started
 * then would count that work in its frames. Returns the milliseconds waited.
 */
export async function quietPage(cdp) {
  const started = Date.now();
  for (let round = 0; round < 200 && Date.now() - started < 60_000; round++) {
    const before = await taskSeconds(cdp);
    await new Promise((resolve) => setTimeout(resolve, 300));
    if ((await taskSeconds(cdp)) - before < 0.012) break;
  }
  return Date.now() - started;
}

/**
 * Run `window.__bench.begin` (which makes the page request the stream: the app's Send, a floor page's
 * reader, the Variants tab's send to every column) and measure until it is over. With `streams`, that many
 * requests stream at once, each at the same pace (`perRequest`: each one's number of tokens, in order).
 */
export async function measureStream(page, cdp, tokens, intervalMs, delta, { streams = 1, perRequest } = {}) {
  // Every stream, the app's and the floors', starts from a quiet page: what the last reply or the session's
  // open left to do in the background is not the stream's cost.
  await quietPage(cdp);
  await page.evaluate(
    ([count, interval, text, expected, each]) => {
      window.__bench.stream = {
        tokens: count,
        intervalMs: interval,
        delta: text,
        streams: expected,
        perRequest: each,
      };
      window.__bench.longTasks = [];
      window.__bench.frames = [];
      window.__bench.firstTokenAt = Infinity;
      window.__bench.expectStream();
    },
    [tokens, intervalMs, delta, streams, perRequest],
  );
  // From here on nothing of Playwright's own runs in the page until the stream is over: its DOM queries
  // would be counted as the page's main-thread time.
  // Main-thread time is read three times: before the stream is asked for (the whole reply: sending,
  // streaming and finishing), at the first token and at the last (the streaming proper, per frame between).
  const before = await taskSeconds(cdp);
  await page.evaluate(async () => {
    window.__bench.recording = true;
    window.__bench.begin();
    await window.__bench.firstToken;
  });
  const streamStart = await taskSeconds(cdp);
  const windowStart = await page.evaluate(() => performance.now());
  const windowEnd = await page.evaluate(async () => {
    await window.__bench.lastToken;
    return performance.now();
  });
  const streamEnd = await taskSeconds(cdp);
  await page.evaluate(async () => {
    await window.__bench.finished;
    await new Promise((resolve) => setTimeout(resolve, 200));
    window.__bench.recording = false;
  });
  const after = await taskSeconds(cdp);
  const {
    longTasks,
    frames: allFrames,
    firstTokenAt,
  } = await page.evaluate(() => ({
    longTasks: window.__bench.longTasks,
    frames: window.__bench.frames,
    firstTokenAt: window.__bench.firstTokenAt,
  }));
  // Sending (building and serializing the request: the whole context, as pi's streamProxy sends it) and
  // streaming are told apart: long tasks and frames from the first token on are the streaming's.
  const streaming = longTasks.filter((task) => task.start >= firstTokenAt).map((task) => task.duration);
  const sending = longTasks.filter((task) => task.start < firstTokenAt).map((task) => task.duration);
  // Between the first token and the last: the streaming proper, without the reply's end (recording the call).
  const tokensOnly = longTasks
    .filter((task) => task.start >= windowStart && task.start <= windowEnd)
    .map((task) => task.duration);
  const frames = allFrames.filter((time) => time >= firstTokenAt);
  const streamingFrames = allFrames.filter((time) => time >= windowStart && time <= windowEnd).length;
  const gaps = frames.slice(1).map((time, index) => time - frames[index]);
  const dropped = gaps.reduce((sum, gap) => sum + Math.max(0, Math.round(gap / 16.67) - 1), 0);
  return {
    mainThreadMs: (after - before) * 1000,
    streamingMs: (streamEnd - streamStart) * 1000,
    streamingFrames,
    longest: streaming.length > 0 ? Math.max(...streaming) : 0,
    longTasks: streaming.length,
    tokensLongest: tokensOnly.length > 0 ? Math.max(...tokensOnly) : 0,
    sendLongest: sending.length > 0 ? Math.max(...sending) : 0,
    dropped,
    frames: frames.length,
  };
}

/** Wait until the page has fetched the inspector's code (it does so while idle after the first paint). */
export async function inspectorCodeLoaded(page) {
  await page.waitForFunction(
    () =>
      performance.getEntriesByType("resource").some((entry) => /\/InspectorPane-[^/]*\.js$/.test(entry.name)),
    undefined,
    { timeout: 10_000 },
  );
  // Fetched is not yet compiled and run: give the idle callback's import a moment to finish.
  await page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 1_000 })),
  );
}

/**
 * Milliseconds from clicking the control (matched by `controlSelector` and its text) until the frame that
 * first shows something matching `shownSelector` has been rendered (`shown`: the end of that frame's task,
 * after its layout and paint), and until the next frame begins (`nextFrame`: with what the page deferred
 * until after that paint).
 * What is shown is watched for with a mutation observer, not looked for at each frame: virtual lists add
 * their rows inside a frame (from a resize observer, after the frame's callbacks), and a look at the next
 * frame's callbacks would count a frame more, and whatever ran in between.
 */
export async function timeClickUntilShown(page, controlSelector, controlText, shownSelector) {
  return page.evaluate(
    ([control, text, shown]) =>
      new Promise((resolve) => {
        const target = [...document.querySelectorAll(control)].find(
          (candidate) => candidate.textContent?.trim() === text,
        );
        // A frame's callbacks, style, layout, resize observers and paint run in one task: a message
        // posted from its first callback arrives once that task is over.
        let frameTask = false;
        let shownInFrame;
        let shownAt;
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          frameTask = false;
          if (shownInFrame === "this frame" && shownAt === undefined) {
            shownAt = performance.now() - started;
            observer.disconnect();
          }
        };
        const frame = () => {
          if (shownAt !== undefined) {
            channel.port1.close();
            resolve({ shown: shownAt, nextFrame: performance.now() - started });
            return;
          }
          frameTask = true;
          // Shown before this frame began: this frame renders it.
          if (shownInFrame === "next frame") shownInFrame = "this frame";
          channel.port2.postMessage(null);
          requestAnimationFrame(frame);
        };
        const observer = new MutationObserver(() => {
          if (shownInFrame || !document.querySelector(shown)) return;
          shownInFrame = frameTask ? "this frame" : "next frame";
        });
        observer.observe(document.body, { childList: true, subtree: true });
        requestAnimationFrame(frame);
        const started = performance.now();
        target.click();
      }),
    [controlSelector, controlText, shownSelector],
  );
}

/** From clicking the Inspector button until its fact rows are rendered (see timeClickUntilShown). */
export function openInspector(page) {
  return timeClickUntilShown(page, "button", "Inspector", '[aria-label="Facts"] [role="option"]');
}

export async function assertVirtualized(page) {
  const rows = await page.getByRole("listbox", { name: "Facts" }).getByRole("option").count();
  if (rows === 0 || rows > 200)
    throw new Error(`the inspector rendered ${rows} fact rows; virtualisation failed`);
}

export const elementCount = (page) => page.evaluate(() => document.getElementsByTagName("*").length);

/** The longest task while `steps` scroll moves of `by` pixels go through an element, one per frame. */
export async function scrollLongestTask(page, selector, steps, by) {
  return page.evaluate(
    async ([target, count, delta]) => {
      const element = document.querySelector(target);
      if (!element) throw new Error(`nothing matches ${target}`);
      window.__bench.longTasks = [];
      window.__bench.recording = true;
      for (let step = 0; step < count; step++) {
        // A reader's scroll: the wheel first (the chat tells the reader's moves from the layout's by it).
        element.dispatchEvent(new WheelEvent("wheel", { deltaY: delta, bubbles: true }));
        element.scrollTop += delta;
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      window.__bench.recording = false;
      // A scroll that ran out of room did less work in its last moves: no measure of the same scroll.
      if (element.scrollTop <= 0 || element.scrollTop + element.clientHeight >= element.scrollHeight)
        throw new Error(`${target}: ${count} moves of ${delta} px reached its end; scroll less`);
      const tasks = window.__bench.longTasks.map((task) => task.duration);
      return tasks.length > 0 ? Math.max(...tasks) : 0;
    },
    [selector, steps, by],
  );
}

/** From choosing an early fact in the inspector until the chat shows its message in view. */
export async function jumpToFact(page, factIndex) {
  return page.evaluate(async (index) => {
    const list = document.querySelector('[role="listbox"][aria-label="Facts"]');
    const rowHeight = list.querySelector('[role="option"]').getBoundingClientRect().height;
    list.scrollTop = index * rowHeight - list.clientHeight / 2;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const option = document.getElementById(`fact-${index}`);
    if (!option) throw new Error(`fact row ${index} is not rendered`);
    const chat = document.querySelector(".messages");
    const started = performance.now();
    option.click();
    return new Promise((resolve, reject) => {
      const check = () => {
        const target = chat.querySelector(`[data-fact-index="${index}"]`);
        if (target) {
          const box = target.getBoundingClientRect();
          const view = chat.getBoundingClientRect();
          if (box.bottom > view.top && box.top < view.bottom) return resolve(performance.now() - started);
        }
        if (performance.now() - started > 10_000)
          return reject(new Error(`fact ${index} never came into view`));
        requestAnimationFrame(check);
      };
      check();
    });
  }, factIndex);
}

/**
 * From typing `typed` into the facts' search box until its status gives the final count (the scan read
 * every fact); returns the milliseconds and the count.
 */
export function searchFacts(page, typed) {
  return page.evaluate(async (query) => {
    const box = document.querySelector('input[aria-label="Search facts"]');
    const status = document.querySelector('[role="search"][aria-label="Search facts"] [role="status"]');
    if (!box || !status) throw new Error("the facts' search box is not shown");
    const started = performance.now();
    box.value = query;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    return new Promise((resolve, reject) => {
      const check = () => {
        const text = status.textContent?.trim() ?? "";
        const done = /^([\d,]+) match(es)?$|^No matches$/.exec(text);
        if (done)
          return resolve({
            ms: performance.now() - started,
            matches: Number((done[1] ?? "0").replaceAll(",", "")),
          });
        if (performance.now() - started > 60_000)
          return reject(new Error(`the search never finished: ${text}`));
        requestAnimationFrame(check);
      };
      check();
    });
  }, typed);
}

/** Empty the facts' search box (as a person deleting the query). */
export function clearFactsSearch(page) {
  return page.evaluate(() => {
    const box = document.querySelector('input[aria-label="Search facts"]');
    box.value = "";
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/**
 * What a trace's tasks cost on the page's main thread, and how much of each was the garbage collector's:
 * its collections (young and full) and the steps of incremental marking V8 charges to code that allocates.
 * V8 decides when to collect, and a collection's length depends on what the whole heap holds, not on the task
 * it falls in. `TRACED_CATEGORIES` are the categories a trace needs for it.
 */
export const TRACED_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-v8.gc"];
const COLLECTOR_EVENTS = new Set([
  "MinorGC",
  "MajorGC",
  "V8.GC_MC_INCREMENTAL",
  "V8.GC_MC_INCREMENTAL_START",
]);

export function mainThreadTasks(traced) {
  const trace = JSON.parse(traced.toString("utf8"));
  const events = trace.traceEvents ?? trace;
  // The page's renderer: the main thread of the process whose frame is the page (the trace names it).
  const mainThreads = new Set(
    events
      .filter((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain")
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const tasks = [];
  const collector = [];
  for (const event of events) {
    if (event.ph !== "X" || !mainThreads.has(`${event.pid}:${event.tid}`)) continue;
    if (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask")
      tasks.push({ start: event.ts, end: event.ts + (event.dur ?? 0) });
    else if (COLLECTOR_EVENTS.has(event.name))
      collector.push({ start: event.ts, end: event.ts + (event.dur ?? 0), full: event.name !== "MinorGC" });
  }
  collector.sort((a, b) => a.start - b.start);
  // Marking steps nest inside collections and each other: their union, not their sum.
  const merged = [];
  for (const span of collector) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return {
    events,
    /** Each task (trace microseconds) with the milliseconds the collector took inside it. */
    tasks: tasks.map((task) => {
      let collected = 0;
      for (const span of merged)
        collected += Math.max(0, Math.min(task.end, span.end) - Math.max(task.start, span.start));
      return { ...task, ms: (task.end - task.start) / 1000, collectorMs: collected / 1000 };
    }),
  };
}

/**
 * The longest task the page's main thread ran while `work` ran, from a Chromium trace: every task, not only
 * those past the 50 ms the Long Tasks API reports, so a subject can be compared with its floor below 50 ms.
 * Also the longest with the garbage collector's time taken out (`apartFromCollector`), and the most the
 * collector took inside one task (`collector`).
 */
export async function longestTracedTask(browser, page, work) {
  await browser.startTracing(page, { categories: TRACED_CATEGORIES });
  let result;
  let traced;
  try {
    result = await work();
  } finally {
    traced = await browser.stopTracing();
  }
  const { tasks } = mainThreadTasks(traced);
  return { ...longestOf(tasks), result };
}

/** Of `tasks` (from `mainThreadTasks`): the longest, the longest apart from the collector, the collector's most. */
export function longestOf(tasks) {
  let longest = 0;
  let apartFromCollector = 0;
  let collector = 0;
  for (const task of tasks) {
    longest = Math.max(longest, task.ms);
    apartFromCollector = Math.max(apartFromCollector, task.ms - task.collectorMs);
    collector = Math.max(collector, task.collectorMs);
  }
  return { longest, apartFromCollector, collector };
}

/** Milliseconds to read every stored entry of the current session with one raw `getAll`, its result read. */
export async function rawGetAll(page) {
  return page.evaluate(async () => {
    const id = localStorage.getItem("pi-playground:current-session");
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const started = performance.now();
    // Reading the result is what turns the stored records into values (Chromium does it on first access).
    const count = await new Promise((resolve, reject) => {
      const request = db
        .transaction("entries", "readonly")
        .objectStore("entries")
        .getAll(IDBKeyRange.bound([id, -1], [id, Number.MAX_SAFE_INTEGER]));
      request.onsuccess = () => resolve(request.result.length);
      request.onerror = () => reject(request.error);
    });
    const took = performance.now() - started;
    db.close();
    if (count === 0) throw new Error("the current session has no stored entries");
    return took;
  });
}

/** Resolve once the page's thread has been idle (the app's after-paint work done). */
export function settled(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) =>
        requestIdleCallback(() => requestIdleCallback(() => resolve(), { timeout: 2_000 }), {
          timeout: 2_000,
        }),
      ),
  );
}

/**
 * The floor of opening the inspector: the same visible rows, as plain DOM with the app's CSS. The open
 * inspector's markup (its rendered rows only: the lists are virtual) is kept, the inspector closed, and a
 * click then widens the same grid column and inserts that markup where the inspector was, timed as the
 * inspector's open is (until the frame showing its rows is rendered). Run on a page whose inspector is open.
 */
export async function plainInspectorFloor(page) {
  await page.evaluate(() => {
    const list = document.querySelector('[aria-label="Facts"]');
    const chat = document.querySelector(".messages");
    let pane = list;
    while (pane.parentElement && !pane.parentElement.contains(chat)) pane = pane.parentElement;
    const grid = document.querySelector("main.panes");
    window.__floor = {
      html: pane.outerHTML,
      parent: pane.parentElement,
      last: pane.parentElement.lastElementChild === pane,
      openColumns: grid.style.gridTemplateColumns,
    };
  });
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.locator('[aria-label="Facts"]').waitFor({ state: "detached" });
  await settled(page);
  await page.evaluate(() => {
    const floor = window.__floor;
    const button = document.createElement("button");
    button.textContent = "Plain rows";
    button.style.cssText = "position: fixed; left: -100px; top: 0";
    button.onclick = () => {
      document.querySelector("main.panes").style.gridTemplateColumns = floor.openColumns;
      const template = document.createElement("template");
      template.innerHTML = floor.html;
      floor.parent.insertBefore(template.content, floor.last ? null : floor.parent.lastElementChild);
    };
    document.body.append(button);
  });
  const { shown } = await timeClickUntilShown(
    page,
    "button",
    "Plain rows",
    '[aria-label="Facts"] [role="option"]',
  );
  return shown;
}
