import { ADMIN_PAGE_SIZE_DEFAULT, ADMIN_PAGE_SIZE_MAX } from '../admin-lists.js';
import { z } from '../zod-it.js';

/** An admin list's page in the query string (decision 013): `page` 1-based, `pageSize` ≤ 200. */
export const pageFields = {
  page: z.coerce.number().int().min(1, 'Pagina non valida').max(1_000_000, 'Pagina non valida').default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, 'Dimensione della pagina non valida')
    .max(ADMIN_PAGE_SIZE_MAX, `Al massimo ${ADMIN_PAGE_SIZE_MAX} righe per pagina`)
    .default(ADMIN_PAGE_SIZE_DEFAULT),
};
