// A session exported as one HTML file: its size against the session's JSON export (which it embeds), and
// its time to first render opened from disk (file://, every request refused), against the same for a
// small session's file.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runnerImport } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "bench", ".out");

/** Open `url` in a fresh context with the network refused; ms from navigation to the session's facts shown. */
async function firstRender(browser, url, count) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  let attempted = 0;
  await context.route("**/*", (route) => {
    if (route.request().url() === url) return route.continue();
    attempted++;
    return route.abort();
  });
  const page = await context.newPage();
  try {
    await page.goto(url);
    // The inspector's summary counts every fact once the session is shown.
    await page.getByText(new RegExp(`^${count} facts? →`)).waitFor({ timeout: 300_000 });
    const ms = await page.evaluate(() => performance.now());
    if (attempted > 0) throw new Error(`the exported file attempted ${attempted} requests`);
    return ms;
  } finally {
    await context.close();
  }
}

export async function htmlExportBenchmarks({ browser, runs, record }) {
  console.log("A session exported as HTML: size and first render from disk…");
  const assets = {
    script: await readFile(join(root, "dist", "viewer", "viewer.js"), "utf8"),
    style: await readFile(join(root, "dist", "viewer", "viewer.css"), "utf8"),
  };
  const { module } = await runnerImport(join(root, "bench", "html-export-files.ts"), {
    configFile: false,
    logLevel: "error",
  });
  const sizes = { small: 10, large: 1_000 };
  await mkdir(out, { recursive: true });
  const urls = {};
  const files = {};
  for (const [key, count] of Object.entries(sizes)) {
    files[key] = await module.htmlExportFiles(count, assets);
    const path = join(out, `session-${count}.html`);
    await writeFile(path, files[key].html);
    urls[key] = pathToFileURL(path).href;
  }
  const kb = (text) => Buffer.byteLength(text) / 1024;
  record(
    "HTML export of 1,000 facts: file size",
    "one HTML file, viewer inlined",
    [kb(files.large.html)],
    "its JSON export",
    [kb(files.large.json)],
    {
      unit: "kB",
      goal: "ratio ≤ 3",
    },
  );
  const times = { small: [], large: [] };
  for (let run = 0; run < runs; run++)
    for (const key of ["small", "large"]) times[key].push(await firstRender(browser, urls[key], sizes[key]));
  record(
    "HTML export of 1,000 facts: first render from disk",
    "file://, no network, until the facts are shown",
    times.large,
    "the same for a file of 10 facts",
    times.small,
  );
}
