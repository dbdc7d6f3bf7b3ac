#!/usr/bin/env node
// Make sure a Chromium exists before the e2e tests: use one that is there, or install Debian's package
// when running as root, or stop with a one-line instruction.
import { spawnSync } from "node:child_process";
import { findChromium } from "./chromium-path.mjs";

const found = await findChromium();
if (found) {
  console.log(`Chromium: ${found}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
if (isRoot && hasApt) {
  console.log("No Chromium found: installing Debian's chromium package (apt-get install -y chromium)…");
  const update = spawnSync("apt-get", ["update"], { stdio: "inherit" });
  const install = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
    stdio: "inherit",
  });
  const installed = await findChromium();
  if (update.status === 0 && install.status === 0 && installed) {
    console.log(`Chromium: ${installed}`);
    process.exit(0);
  }
}
console.error(
  "No Chromium found: install one (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to its binary, then rerun npm test.",
);
process.exit(1);
