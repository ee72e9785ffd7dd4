/**
 * The admin lists' paging (behaviour.md §8), apart from their schemas: /admin reads these
 * without loading zod (the `schemas` chunk) on its first screen (decision 027).
 */
export const ADMIN_PAGE_SIZE_DEFAULT = 50;
export const ADMIN_PAGE_SIZE_MAX = 200;
export const TOTAL_COUNT_HEADER = 'x-total-count';
