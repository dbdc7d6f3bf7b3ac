import { StorageError } from "../storage/session-store.ts";
import { DEFAULT_STORAGE_LIMITS } from "../storage/storage-limits.ts";

export interface StartupScreen {
  /** Rejects when the person chooses to go on without stored sessions. */
  readonly memoryChosen: Promise<never>;
  dispose(): void;
}

/**
 * What the page shows before the playground is ready: that it is opening the stored sessions, and, when
 * the browser's storage takes too long, that it is not answering, with the choice to go on in memory.
 * Plain DOM, because it runs before anything is mounted.
 */
export function showStartup(
  target: HTMLElement,
  slowAfterMs = DEFAULT_STORAGE_LIMITS.slowAfterMs,
): StartupScreen {
  const box = document.createElement("div");
  box.className = "startup";
  box.setAttribute("role", "status");
  box.textContent = "Opening your stored sessions…";
  target.replaceChildren(box);

  let choose: (error: StorageError) => void = () => undefined;
  const memoryChosen = new Promise<never>((_, reject) => (choose = reject));
  memoryChosen.catch(() => undefined);

  const timer = setTimeout(() => {
    box.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent =
      "The browser's storage is not answering. You can wait, or go on with sessions kept in memory only (they are lost when this tab closes).";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Continue in memory";
    button.addEventListener("click", () =>
      choose(
        new StorageError(
          "unavailable",
          "the browser's storage did not answer, and you chose to go on in memory.",
        ),
      ),
    );
    box.replaceChildren(text, button);
    button.focus();
  }, slowAfterMs);

  return {
    memoryChosen,
    dispose: () => {
      clearTimeout(timer);
      box.remove();
    },
  };
}
