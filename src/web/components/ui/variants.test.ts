import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { badgeVariants } from './badge';
import { buttonVariants } from './button';

/*
 * A button that first renders before tailwind-merge has come (decision 048: a chunk asked for once
 * the page has loaded), and that the page did not bring among its class lists (the passkey's
 * button, shown once the browser's support is known), is given its classes as joined. If
 * tailwind-merge would have changed them, lib/utils.ts logs an error and the app renders again:
 * CI met that once on /bici/07's login form (`size="lg"` repeated the base's `text-base`). Every
 * variant and size, alone and with the classes the app adds, is as tailwind-merge leaves it.
 */
const VARIANTS = ['default', 'secondary', 'outline', 'destructive', 'ghost', 'link'] as const;
const SIZES = ['default', 'sm', 'lg', 'icon'] as const;
/** What the app's buttons add to the variants' classes (grep `<Button` … `className=`): width and spacing, never a second size. */
const ADDED = ['', 'w-full', 'mt-3 min-h-12'];

describe('the buttons’ class lists need no merging', () => {
  for (const variant of VARIANTS) {
    for (const size of SIZES) {
      it(`${variant}, ${size}`, () => {
        for (const added of ADDED) {
          const joined = buttonVariants({ variant, size, className: added || undefined });
          expect(twMerge(joined), added).toBe(joined);
        }
      });
    }
  }
});

describe('the badges’ class lists need no merging', () => {
  for (const variant of ['default', 'secondary', 'outline', 'success', 'info', 'warning', 'danger', 'muted'] as const) {
    it(variant, () => {
      const joined = badgeVariants({ variant });
      expect(twMerge(joined)).toBe(joined);
    });
  }
});
