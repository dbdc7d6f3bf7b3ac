import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/chromium-path.mjs";

const PORT = Number(process.env.E2E_PORT) || 4317;
const FIXTURE_PORT = Number(process.env.E2E_FIXTURE_PORT) || 4318;
const executablePath = await findChromium();

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    launchOptions: { args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) },
    trace: "retain-on-failure",
  },
  webServer: [
    {
      command: `node e2e/fixtures/openai-fixture-server.mjs ${FIXTURE_PORT}`,
      url: `http://127.0.0.1:${FIXTURE_PORT}/__health`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      // The production build, served by the same plugin as `npm start`.
      command: `npx vite build && npx vite preview --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}/api/session`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        HOST: "127.0.0.1",
        LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${FIXTURE_PORT}/v1`,
        LOCAL_OPENAI_NAME: "Loopback fixture",
        MAX_CONCURRENT_STREAMS: "4",
        // A fake key: lists OpenAI's models, and lets the tests check that no key ever reaches the page.
        OPENAI_API_KEY: "sk-e2e-fake-key-never-leaves-the-server",
        // A deliberately short key for the local server, which its echo model sends back as reply text.
        LOCAL_OPENAI_API_KEY: "e2k",
      },
    },
  ],
});
