import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { NotifiedCache } from '../../db/notifications.js';
import { sedi } from './tables.js';

/** The channel a change of `sedi` is told on (sedi/triggers/sedi.sql). */
export const SEDI_CHANNEL = 'bicielis_sedi';

/** An open sede as a public page needs it: the registration's picker (GET /api/config). */
export interface OpenSede {
  id: number;
  nome: string;
}

/** The open sedi, the first first (one small statement). */
export async function loadOpenSedi(db: Pick<Db, 'execute'>): Promise<OpenSede[]> {
  const { rows } = await db.execute<{ id: number; nome: string }>(sql`select id, nome from ${sedi} where archiviata_at is null order by id`);
  return rows.map((r) => ({ id: r.id, nome: r.nome }));
}

/**
 * The open sedi in memory, one copy per process, read at every page load (GET /api/config) and
 * by the server-rendered /dashboard: dropped on every notification of SEDI_CHANNEL and not used
 * while the listening connection is down, as the rules cache (rules/store.ts). A load that a
 * notification overtook is not kept.
 */
export class SediCache implements NotifiedCache {
  private active = false;
  private generation = 0;
  private value: Promise<OpenSede[]> | undefined;

  apply(): void {
    this.generation++;
    this.value = undefined;
  }

  setActive(active: boolean): void {
    this.active = active;
    this.apply();
  }

  get(db: Pick<Db, 'execute'>): Promise<OpenSede[]> {
    if (!this.active) return loadOpenSedi(db);
    if (this.value) return this.value;
    const generation = this.generation;
    const loading = loadOpenSedi(db);
    this.value = loading;
    loading.then(
      () => {
        if (this.generation !== generation && this.value === loading) this.value = undefined;
      },
      () => {
        if (this.value === loading) this.value = undefined;
      },
    );
    return loading;
  }
}

/** The open sedi, from the process's cache when handed one, else from the database. */
export const openSedi = ({ db, sediCache }: { db: Pick<Db, 'execute'>; sediCache?: SediCache | undefined }): Promise<OpenSede[]> =>
  sediCache ? sediCache.get(db) : loadOpenSedi(db);
