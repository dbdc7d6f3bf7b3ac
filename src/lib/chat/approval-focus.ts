/**
 * Where focus goes once an approval request is decided (its buttons disappear): the next request still
 * waiting for a decision, if the chat shows one, else nowhere in particular (the caller picks).
 */
export function nextPendingApproval(root: ParentNode, decided: Element | undefined): HTMLElement | undefined {
  for (const button of root.querySelectorAll<HTMLElement>('[data-status="pending"] button.approve')) {
    if (!decided?.contains(button)) return button;
  }
  return undefined;
}
