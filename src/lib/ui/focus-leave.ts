/**
 * A `focusout` handler for a control together with the popover it opens (a menu, a picker, a popover of
 * fields), put on the element holding both: `leave` runs when the focus goes outside that element (Tab past
 * the last field, a click elsewhere), not when it moves between its parts.
 */
export function onFocusLeaving(leave: () => void): (event: FocusEvent) => void {
  return (event) => {
    const holder = event.currentTarget as Pick<Node, "contains"> | null;
    if (holder && !holder.contains(event.relatedTarget as Node | null)) leave();
  };
}
