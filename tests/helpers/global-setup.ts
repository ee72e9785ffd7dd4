import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../src/server/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/db/embedded.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { createLogger } from '../../src/server/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

export const TEMPLATE_DB = 'bicielis_test_template';

/**
 * One PostgreSQL for the whole run: `TEST_DATABASE_URL` when set, else an embedded one in
 * a temporary folder. A migrated template database is made once; every test file copies
 * it into a database of its own (tests/helpers/db.ts).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-test-pg-'));
    // pg_stat_statements: the booking path's statements and plans are counted by the server
    // itself (tests/api/booking-statements.test.ts, issue 51).
    embedded = await startEmbeddedPostgres(dataDir, createLogger('warn'), {
      settings: {
        shared_preload_libraries: 'pg_stat_statements',
        'pg_stat_statements.track': 'all',
        'pg_stat_statements.track_planning': 'on',
        // Room for every test file's statements at once: the counted ones are never evicted mid-test.
        'pg_stat_statements.max': '20000',
      },
    });
    adminUrl = embedded.url;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
  const template = connectDatabase(templateUrl, { max: 1 });
  await runMigrations(template.db);
  await template.close();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE_DB);

  return async () => {
    await embedded?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
