import pg from 'pg';

/**
 * Plain pg connections to a test database, outside the app's pool: a test plays another
 * transaction with one (a booking being inserted, a writer holding a lock). `closeAll` ends
 * every one opened, for afterAll.
 */
export function rawClients(url: () => string) {
  const open: pg.Client[] = [];
  return {
    async connect(): Promise<pg.Client> {
      const c = new pg.Client({ connectionString: url() });
      await c.connect();
      open.push(c);
      return c;
    },
    async closeAll(): Promise<void> {
      for (const c of open.splice(0)) await c.end().catch(() => undefined);
    },
  };
}
