/** The page's localStorage, or undefined where reading it throws (sandboxed frames, some privacy modes). */
export function pageStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
