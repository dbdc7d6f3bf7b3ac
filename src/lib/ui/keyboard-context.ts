import type { KeyContext } from "./shortcuts.ts";

const NON_TEXT_INPUTS = new Set(["button", "checkbox", "radio", "range", "color", "file", "submit", "reset"]);

/** Whether typing at this element types text (so single-key shortcuts must stay quiet). */
function isTextField(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

/** The parts of a key press that decide which shortcut, if any, it is. */
export function keyContextOf(
  event: KeyboardEvent,
  state: { running: boolean; singleKeysEnabled: boolean },
): KeyContext {
  const target = event.target instanceof Element ? event.target : null;
  return {
    key: event.key,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    altKey: event.altKey,
    inTextField: isTextField(target),
    inOverlay: target?.closest("dialog, [popover], [role=menu]") != null,
    running: state.running,
    singleKeysEnabled: state.singleKeysEnabled,
  };
}
