/**
 * Whether a popover is open: the early controls (decisions 039, 067, 068) read at hydration
 * whether a tap before it opened theirs natively. False in a browser without popovers, where
 * nothing opened before the app.
 */
export function isPopoverOpen(element: HTMLElement | null | undefined): boolean {
  if (!element) return false;
  try {
    return element.matches(':popover-open');
  } catch {
    return false;
  }
}
