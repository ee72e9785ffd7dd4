import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SessionUser } from '../../shared/api-types';
import type { QueuedAction } from './actions';

/**
 * The device's own database (IndexedDB `bicielis`), used by the page and by the service
 * worker alike (issue 22): what the app keeps to work offline, and only for the user who last
 * used it on this device.
 *
 * - `dati`: `utente` (the last user the server confirmed, with when) and `cache` (the
 *   persisted TanStack Query cache of that user's own data, offline/persist.ts);
 * - `azioni`: the ride steps waiting to reach the server (offline/queue.ts), by `idAzione`.
 *
 * Logout empties both (offline/device-data.ts).
 */
export interface DeviceUserRecord {
  user: SessionUser;
  /** When the server last confirmed this session (ms): the cookie lives 30 days from a use. */
  confirmedAt: number;
}

interface BiciElisDb extends DBSchema {
  dati: {
    key: string;
    value: DeviceUserRecord | string;
  };
  azioni: {
    key: string;
    value: QueuedAction;
    indexes: { perSequenza: number };
  };
}

export const DB_NAME = 'bicielis';
const DB_VERSION = 1;

let opening: Promise<IDBPDatabase<BiciElisDb>> | undefined;

/** The database, opened once per page or worker (and again if the browser closed it). */
export function deviceDb(): Promise<IDBPDatabase<BiciElisDb>> {
  opening ??= openDB<BiciElisDb>(DB_NAME, DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('dati');
      const azioni = db.createObjectStore('azioni', { keyPath: 'idAzione' });
      azioni.createIndex('perSequenza', 'sequenza');
    },
    // Another tab or worker upgrading to a newer version: give the database up to it.
    blocking() {
      void opening?.then((db) => db.close());
      opening = undefined;
    },
    terminated() {
      opening = undefined;
    },
  }).catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening;
}
