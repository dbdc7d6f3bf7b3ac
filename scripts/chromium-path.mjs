import { existsSync } from "node:fs";

/**
 * The Chromium the e2e tests and benchmarks drive: CHROMIUM_PATH if set, else Playwright's own browser
 * when it was downloaded, else Debian's /usr/bin/chromium. Returns undefined when none is found.
 */
export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  try {
    const { chromium } = await import("@playwright/test");
    const bundled = chromium.executablePath();
    if (bundled && existsSync(bundled)) return bundled;
  } catch {
    // Playwright reports no browser when none was downloaded; fall through to the system one.
  }
  for (const candidate of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Flags that let Chromium run as root on a machine without network access or a GPU. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
