import { COPIED_FEEDBACK_MS, copyText } from "../../ui/clipboard.ts";

/**
 * Gives every code block inside `container` a Copy button in its caption, next to the language label, also
 * for blocks that appear later (a streamed reply). The rendered HTML is sanitized and holds no buttons, so
 * they are added here, after it is in the page. Returns the function that stops watching.
 *
 * Code and tables scroll sideways rather than wrap; each such box is made a Tab stop, so someone without a
 * mouse can reach it and scroll it with the arrow keys (axe-core: scrollable-region-focusable).
 */
export function enhanceCodeBlocks(container: HTMLElement): () => void {
  const enhance = () => {
    for (const scroller of container.querySelectorAll<HTMLElement>(
      "figure.code-block > pre, .table-scroll",
    )) {
      if (!scroller.hasAttribute("tabindex")) scroller.tabIndex = 0;
    }
    for (const figure of container.querySelectorAll<HTMLElement>("figure.code-block")) {
      const caption = figure.querySelector(":scope > figcaption");
      if (!caption || caption.querySelector("button")) continue;
      const language = caption.textContent ?? "code";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.textContent = "Copy";
      button.setAttribute("aria-label", `Copy ${language} code`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      button.addEventListener("click", () => {
        const code = figure.querySelector("pre > code")?.textContent ?? "";
        void copyText(code.replace(/\n$/, "")).then((copied) => {
          if (!copied) return;
          button.textContent = "Copied";
          button.setAttribute("aria-label", `Copy ${language} code: copied`);
          clearTimeout(timer);
          timer = setTimeout(() => {
            button.textContent = "Copy";
            button.setAttribute("aria-label", `Copy ${language} code`);
          }, COPIED_FEEDBACK_MS);
        });
      });
      caption.append(button);
    }
  };
  enhance();
  const observer = new MutationObserver(enhance);
  observer.observe(container, { childList: true, subtree: true });
  return () => observer.disconnect();
}
