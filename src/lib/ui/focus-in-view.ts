import type { Attachment } from "svelte/attachments";

/**
 * For a row that scrolls sideways (the header's chips on a phone): the control the focus reaches in it is
 * scrolled fully into view: Chromium does not scroll such a row for a control Tab reaches. Popovers
 * opened from the row sit in the top layer, over the page: focus inside them moves nothing.
 */
export const keepFocusInView: Attachment<HTMLElement> = (row) => {
  const onfocusin = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || target.closest("[popover]")) return;
    target.scrollIntoView({ block: "nearest", inline: "nearest" });
  };
  row.addEventListener("focusin", onfocusin);
  return () => row.removeEventListener("focusin", onfocusin);
};
