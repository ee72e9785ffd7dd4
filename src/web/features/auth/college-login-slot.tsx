import { useEffect, useState, type ComponentType } from 'react';

/**
 * The college account's way in on /login (issue 49): nothing in the first download but this
 * slot. After hydration its chunk (college-login.tsx) reads GET /api/config and the address's
 * `?accesso=`, and fills the slot only when there is something to show.
 */
export function CollegeLoginSlot() {
  const [Shown, setShown] = useState<ComponentType | null>(null);
  useEffect(() => void import('./college-login').then((m) => m.fillSlot(setShown)), []);
  return Shown && <Shown />;
}
