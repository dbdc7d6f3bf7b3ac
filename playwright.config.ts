import { defineConfig } from "@playwright/test";
import {
  FAKE_OPENAI_KEY,
  FIXTURE_PORT,
  OTHER_STATIC_PORT,
  PORT,
  PROXY_PORT,
  PROXY_TOKEN,
  STATIC_BASE,
  STATIC_PORT,
} from "./e2e/ports.ts";
import { CHROMIUM_ARGS, findChromium } from "./scripts/chromium-path.mjs";

const executablePath = await findChromium();
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}/v1`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Hang detectors, not speed checks (the benchmarks measure speed): a journey that takes 5 s on an idle
  // machine took over a minute with both cores busy, and must still pass there.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    launchOptions: { args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) },
    trace: "retain-on-failure",
  },
  // Started one after the other: the static server serves what the second one built.
  webServer: [
    {
      command: `node e2e/fixtures/openai-fixture-server.mjs ${FIXTURE_PORT}`,
      url: `http://127.0.0.1:${FIXTURE_PORT}/__health`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      // The production build, served by the same plugin as `npm start`.
      command: `npm run build && npx vite preview --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}/api/session`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        HOST: "127.0.0.1",
        LOCAL_OPENAI_BASE_URL: FIXTURE,
        LOCAL_OPENAI_NAME: "Loopback fixture",
        MAX_CONCURRENT_STREAMS: "4",
        // A fake key: lists OpenAI's models, and lets the tests check that no key ever reaches the page.
        OPENAI_API_KEY: FAKE_OPENAI_KEY,
        // A deliberately short key for the local server, which its echo model sends back as reply text.
        LOCAL_OPENAI_API_KEY: "e2k",
      },
    },
    {
      // The same build on a plain static server under a sub-path, as two origins: no API at all.
      command: `node e2e/fixtures/static-server.mjs dist ${STATIC_BASE} ${STATIC_PORT} ${OTHER_STATIC_PORT}`,
      url: `http://127.0.0.1:${STATIC_PORT}/__health`,
      reuseExistingServer: false,
    },
    {
      // The proxy alone, as its README asks to start it beside a static page.
      command: "npm run proxy",
      url: `http://127.0.0.1:${PROXY_PORT}/api/session`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PROXY_PORT),
        ALLOWED_ORIGINS: `http://127.0.0.1:${STATIC_PORT}`,
        PROXY_TOKEN,
        LOCAL_OPENAI_BASE_URL: FIXTURE,
        LOCAL_OPENAI_NAME: "Loopback fixture",
        OPENAI_API_KEY: FAKE_OPENAI_KEY,
      },
    },
  ],
});
