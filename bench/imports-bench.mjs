// Importing hostile session files in Chromium: the longest main-thread task from choosing the file until its
// session is the one shown, for each kind of file that once froze the tab (one line of 30 MB, 100,000
// entries, 50,000 roots, an id and a label of 1 MB, files of 50 and 70 MB), against the same import of a
// 1,000-entry file. Whether progress was on screen while it ran, and whether the page answered a click
// meanwhile, are recorded with each row.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { instrument } from "./app-page.mjs";

const out = fileURLToPath(new URL("./.out/", import.meta.url));
const MB = 1024 * 1024;
const START = Date.UTC(2026, 0, 1);

/** A pi session file (version 3): its header, then one line per entry. */
function piFile(entries) {
  const header = { type: "session", version: 3, id: "bench-import", timestamp: iso(0), cwd: "/work" };
  return `${[header, ...entries].map((value) => JSON.stringify(value)).join("\n")}\n`;
}

function iso(index) {
  return new Date(START + index * 1000).toISOString();
}

function message(index, parentId, text, id = `e${index}`) {
  const role = index % 2 === 0 ? "user" : "assistant";
  const message =
    role === "user"
      ? { role, content: text, timestamp: START + index }
      : {
          role,
          content: [{ type: "text", text }],
          api: "openai-completions",
          provider: "openai",
          model: "gpt-4o",
          usage: {
            input: 10,
            output: 10,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 20,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "stop",
          timestamp: START + index,
        };
  return { type: "message", id, parentId, timestamp: iso(index), message };
}

/** A chain of `count` messages, each `textBytes` long. */
function chain(count, textBytes = 40) {
  const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(textBytes / 27)).slice(0, textBytes);
  return Array.from({ length: count }, (_, index) =>
    message(index, index === 0 ? null : `e${index - 1}`, `${index}: ${filler}`),
  );
}

/** The hostile files, by name; each is a pi session file, the kind most often imported. */
export function hostileFiles() {
  const big = "x".repeat(MB);
  const longLine = [message(0, null, "y".repeat(30 * MB))];
  const hugeId = chain(10);
  hugeId[5].id = `id-${big}`;
  hugeId[6].parentId = hugeId[5].id;
  const hugeLabel = [
    ...chain(10),
    { type: "label", id: "l1", parentId: "e9", timestamp: iso(11), targetId: "e4", label: big },
  ];
  const roots = Array.from({ length: 50_000 }, (_, index) => message(index, null, `root ${index}`));
  // Entries of 10 kB until the file is 50 or 70 MB (the second is past the 64 MB import limit).
  const sized = (bytes) => chain(Math.ceil(bytes / (10 * 1024 + 330)), 10 * 1024);
  return [
    { key: "floor", work: "1,000 entries", text: piFile(chain(1_000)) },
    { key: "long-line", work: "one line of 30 MB", text: piFile(longLine) },
    { key: "entries", work: "100,000 entries", text: piFile(chain(100_000)) },
    { key: "roots", work: "50,000 roots", text: piFile(roots) },
    { key: "huge-id", work: "an id of 1 MB", text: piFile(hugeId) },
    { key: "huge-label", work: "a label of 1 MB", text: piFile(hugeLabel) },
    { key: "50mb", work: "a file of 50 MB", text: piFile(sized(50 * MB)) },
    {
      key: "70mb",
      work: "a file of 70 MB (past the import limit)",
      text: piFile(sized(70 * MB)),
      confirm: true,
    },
  ];
}

/**
 * Import the file at `path` in a fresh page: the longest task from choosing it until its session is the one
 * shown, whether a progress indicator was seen, and the longest wait for a click on the search box.
 */
async function importOnce(browser, baseURL, file) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  try {
    await page.goto(baseURL);
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await page.evaluate(() => {
      window.__bench.longTasks = [];
      window.__bench.recording = true;
      // Progress seen: an element with role progressbar inside the sessions pane, at any moment.
      window.__bench.progressSeen = false;
      const watch = () => {
        if (!window.__bench.recording) return;
        if (
          document.querySelector(
            '[aria-label="Sessions"] progress, [aria-label="Sessions"] [role="progressbar"]',
          )
        )
          window.__bench.progressSeen = true;
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    const started = Date.now();
    await page.getByLabel("Import a session file").setInputFiles(file.path);
    const shown = page
      .getByRole("button", { name: new RegExp(`^Imported: bench-${file.key}`) })
      .and(page.locator('[aria-current="true"]'));
    // The page answers while it imports: once the import shows its progress (or is done, when it shows
    // none), a click on the search box, timed from the click to its end.
    await page
      .locator('[aria-label="Sessions"] progress')
      .or(shown)
      .or(page.getByRole("button", { name: "Import as described" }))
      .first()
      .waitFor({ timeout: 600_000 });
    const search = page.getByRole("searchbox", { name: "Search sessions" });
    const clickStarted = Date.now();
    await search.click({ timeout: 600_000 });
    const clickMs = Date.now() - clickStarted;
    if (file.confirm) {
      await page.getByRole("button", { name: "Import as described" }).click({ timeout: 600_000 });
    }
    await shown.waitFor({ timeout: 600_000 });
    const wallMs = Date.now() - started;
    const { longest, progressSeen } = await page.evaluate(() => {
      window.__bench.recording = false;
      return {
        longest: Math.max(0, ...window.__bench.longTasks.map((task) => task.duration)),
        progressSeen: window.__bench.progressSeen,
      };
    });
    return { longest, wallMs, clickMs, progressSeen };
  } finally {
    await context.close();
  }
}

export async function importsBenchmarks({ browser, baseURL, runs, record }) {
  console.log("The app in Chromium: importing hostile session files…");
  await mkdir(out, { recursive: true });
  const files = hostileFiles();
  for (const file of files) {
    file.path = join(out, `bench-${file.key}.jsonl`);
    file.bytes = Buffer.byteLength(file.text);
    await writeFile(file.path, file.text);
    delete file.text;
  }
  const results = new Map(files.map((file) => [file.key, []]));
  for (let run = 0; run < runs; run++)
    for (const file of files) {
      const result = await importOnce(browser, baseURL, file);
      console.log(
        `    ${file.work}: longest task ${result.longest.toFixed(0)} ms, ${result.wallMs} ms in all, a click answered in ${result.clickMs} ms, progress ${result.progressSeen ? "seen" : "not seen"}`,
      );
      results.get(file.key).push(result);
    }
  const floor = results.get("floor");
  const pick = (list, field) => list.map((result) => result[field]);
  for (const file of files) {
    const list = results.get(file.key);
    const work = `${file.work} (${(file.bytes / 1e6).toFixed(1)} MB, pi session)`;
    const extra = {
      goal: "≤ 100 ms",
      progressSeen: list.every((result) => result.progressSeen),
      clickMs: Math.max(...pick(list, "clickMs")),
    };
    record(
      "importing a session file: longest main-thread task",
      work,
      pick(list, "longest"),
      "the same import of 1,000 entries",
      pick(floor, "longest"),
      extra,
    );
    record(
      "importing a session file: until its session is shown",
      work,
      pick(list, "wallMs"),
      "the same import of 1,000 entries",
      pick(floor, "wallMs"),
    );
  }
}
