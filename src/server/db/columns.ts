import { sql } from 'drizzle-orm';
import { customType, integer, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers shared by the modules' tables (tables.ts in each module). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => tstz('created_at').notNull().defaultNow();
export const updatedAt = () => tstz('updated_at').notNull().defaultNow();

/**
 * A row's sede (issue 47, decision 053). Never null in the table; given as null (or left out),
 * the row's BEFORE INSERT trigger fills it: the first open sede (`bicielis_sede_predefinita`,
 * sedi/triggers/sedi.sql), or a booking's bike's sede (`bicielis_booking_sede`). So every write
 * made before there were sedi works the same on an install with one.
 */
export const sedeColumn = () => integer('sede_id').notNull().default(sql`null`);
