import { z } from '../zod-it.js';
import { msg, type PlainKey } from './message.js';

/** The largest id PostgreSQL's `integer` (serial) holds. */
export const MAX_ID = 2_147_483_647;

/**
 * An id in a path or a query string: canonical decimal digits only (issue 19, "Strict ids").
 * No sign, no leading zero, no space (`%201` decodes to " 1"), no fraction or exponent, no
 * hex, nothing above MAX_ID: anything else is refused with the message `key` names, before any lookup.
 */
export const idParam = (key: PlainKey) =>
  z
    .string(msg(key))
    .regex(/^[1-9][0-9]{0,9}$/, msg(key))
    .transform(Number)
    .pipe(z.number().max(MAX_ID, msg(key)));

/** An id in a JSON body: a JSON integer from 1 to MAX_ID; a string ("1") or 1.5 is refused. */
export const idBody = (key: PlainKey) => z.number(msg(key)).int(msg(key)).min(1, msg(key)).max(MAX_ID, msg(key));
