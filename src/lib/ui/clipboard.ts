/**
 * Put text on the clipboard. The asynchronous Clipboard API needs a secure context (localhost counts);
 * served over plain HTTP to another machine the page falls back to a hidden text area and the copy command.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    try {
      // Deprecated, but the only way to copy outside a secure context.
      return document.execCommand("copy");
    } finally {
      area.remove();
    }
  }
}

/** How long a copy button says "Copied" before it reads "Copy" again. */
export const COPIED_FEEDBACK_MS = 1_500;
