import { ADMIN_PAGE_SIZE_DEFAULT, ADMIN_PAGE_SIZE_MAX } from '../admin-lists.js';
import { z } from '../zod-it.js';
import { msg } from './message.js';

/** An admin list's page in the query string (decision 013): `page` 1-based, `pageSize` ≤ 200. */
export const pageFields = {
  page: z.coerce.number().int().min(1, msg('schemas.invalidPage')).max(1_000_000, msg('schemas.invalidPage')).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, msg('schemas.invalidPageSize'))
    .max(ADMIN_PAGE_SIZE_MAX, msg('schemas.pageSizeTooBig', { max: ADMIN_PAGE_SIZE_MAX }))
    .default(ADMIN_PAGE_SIZE_DEFAULT),
};
