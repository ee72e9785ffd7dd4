import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { connectDatabase } from './db/client.js';
import { embeddedRunAs, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { openWalArchive, type OpenArchive } from './db/wal-archive.js';
import { baseBackups, type BaseBackups } from './jobs/base-backup-job.js';
import { projectRoot, runMigrations } from './db/migrate.js';
import { listenForChanges } from './db/notifications.js';
import { ensureRulesRow, RULES_CHANNEL, RulesCache } from './modules/rules/index.js';
import { ensureAdmin, seedDemo } from './seed/seed.js';
import { appJobs, lifecycleJob, reportJob } from './jobs/app-jobs.js';
import { JOB_LOCKS, runExclusive, startScheduler } from './jobs/scheduler.js';
import { createLogger } from './logger.js';
import { loadPageRenderer } from './pages/server-render.js';
import { AUTH_CHANNEL, SessionCache } from './modules/auth/index.js';
import { FREED_TIME_CHANNEL } from './modules/waitlist/index.js';
import { PIN_CHANNEL } from './modules/locks/index.js';
import { RACK_CHANNEL } from './modules/rack/index.js';

if (existsSync('.env')) process.loadEnvFile('.env');

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const log = createLogger(config.logLevel, undefined, config.logFormat);
let embedded: EmbeddedDatabase | undefined;
let archive: OpenArchive | undefined;

/** DATABASE_URL, or the embedded cluster with its log archived (and its base backups). */
async function startDatabase(cfg: Config): Promise<{ url: string; backups: BaseBackups | undefined }> {
  if (cfg.databaseUrl) return { url: cfg.databaseUrl, backups: undefined };
  // Its write-ahead log archived into WAL_ARCHIVE_DIR (decision 056): the folder is handed to
  // PostgreSQL as a descriptor, which a restart after a crash keeps using.
  if (cfg.walArchive) archive = await openWalArchive(cfg.walArchive, embeddedRunAs(log));
  // Restarted when it stops under the app; past the policy, the process exits for its
  // supervisor (decision 037).
  embedded = await startEmbeddedPostgres(cfg.dataDir, log, {
    ...archive?.startOptions,
    supervise: {
      onFatal: (message) => {
        console.error(message);
        process.exit(1);
      },
    },
  });
  return { url: embedded.url, backups: cfg.walArchive ? baseBackups(embedded, cfg.walArchive, log) : undefined };
}

async function main(cfg: Config) {
  const started = performance.now();
  const { url, backups } = await startDatabase(cfg);
  const database = connectDatabase(url, cfg.pool);
  await runMigrations(database.db, undefined, { sedePredefinita: cfg.sedePredefinita });
  // The configured admin first, then the demo data, which does not count that admin as
  // content: on a new database both are there (behaviour.md §1).
  // The service's rules, from the environment's defaults at the first start only (issue 20).
  await ensureRulesRow(database.db, cfg);
  if (cfg.admin) await ensureAdmin(database.db, cfg.admin, log);
  const demoAccounts = cfg.seedDemo
    ? await seedDemo(database.db, log, cfg.admin?.email, { now: systemClock.now(), timeZone: cfg.timeZone })
    : [];

  const sessionCache = new SessionCache();
  const rulesCache = new RulesCache();
  const app = await buildApp({
    config: cfg,
    database,
    sessionCache,
    rulesCache,
    clock: systemClock,
    logger: log,
    webRoot: path.join(projectRoot, 'dist', 'web'),
    // /dashboard and /admin rendered with the user's data (issue 22), when built.
    pageRenderer: await loadPageRenderer(path.join(projectRoot, 'dist', 'ssr', 'entry-server.js'), log),
  });

  // One connection LISTENing for the session cache (decision 008), the rules (decision 024)
  // freed time (the waitlist's dispatcher, decision 035) and the rack board's links (decision
  // 044). Before the port opens.
  const listener = listenForChanges(
    url,
    {
      [AUTH_CHANNEL]: sessionCache,
      [RULES_CHANNEL]: rulesCache,
      [FREED_TIME_CHANNEL]: app.freedTime,
      [PIN_CHANNEL]: app.pins,
      [RACK_CHANNEL]: app.rack,
    },
    log,
  );
  await listener.ready;

  const { mailer, push, locks, payments, metrics } = app.deps;
  if (backups) metrics.watchArchive(database.pool);
  const jobDeps = { database, clock: systemClock, mailer, push, locks, payments, metrics, config: cfg, log, baseBackups: backups };
  // Catch up at once on what happened while the server was down, then every minute.
  // Counted in the metrics as the scheduler's runs are (decision 032).
  await runExclusive(database.pool, JOB_LOCKS.lifecycle, () => metrics.timeJob('booking-lifecycle', lifecycleJob(jobDeps)));
  const scheduler = startScheduler(database.pool, cfg.timeZone, appJobs(jobDeps), log, metrics);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The signal may have reached PostgreSQL too (Ctrl+C, a process group's stop): no restart.
    embedded?.shuttingDown();
    // /api/ready answers 503 from now on: a load balancer sends nothing new while the jobs and
    // the answers in flight finish (decision 032).
    app.beginDrain();
    log.info({ signal, drainDelayMs: cfg.drainDelayMs }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took too long: exiting');
      process.exit(1);
    }, 20_000 + cfg.drainDelayMs).unref();
    try {
      // The load balancer sees /api/ready at 503 and stops sending new requests while the port
      // is still open (the requests it still sends are answered, with `Connection: close`).
      if (cfg.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, cfg.drainDelayMs));
      // Job runs in flight finish before anything they use closes.
      await scheduler.stop();
      // Connections that fall idle while the answers in flight finish are closed as they do:
      // those with no request unanswered, quiet for a moment (src/server/http/connections.ts),
      // so that a request already read is answered, never cut (issue 32).
      const reaper = setInterval(() => app.server.closeIdleConnections(), 200);
      await app.close();
      clearInterval(reaper);
      await listener.stop();
      await database.close();
      await embedded?.stop();
      clearTimeout(force);
      log.info('stopped cleanly');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: cfg.port, host: cfg.host });
  log.info({ ms: Math.round(performance.now() - started), url: cfg.publicUrl }, 'BiciElis ready');
  // Reports missed while the server was down, after the port opens (rendering takes time).
  runExclusive(database.pool, JOB_LOCKS.reports, () => metrics.timeJob('nightly-report', reportJob(jobDeps))).catch((err: unknown) => log.error({ err }, 'report catch-up failed'));
  // The first base backup (none yet, or none on this timeline after a restore), in the
  // background: until it exists, `db restore --at` has nothing to start from (decision 056).
  backups?.ensureOnTimeline(database.pool).catch((err: unknown) => log.error({ err }, 'first base backup failed'));
  if (demoAccounts.length > 0) {
    const width = Math.max(...demoAccounts.map((a) => a.descrizione.length));
    const lines = demoAccounts.map((a) => `  ${a.descrizione.padEnd(width)}  ${a.email}  /  ${a.password}`);
    console.log(`\nBiciElis è pronto su ${cfg.publicUrl}\nAccount dimostrativi:\n${lines.join('\n')}\n`);
  } else {
    console.log(`\nBiciElis è pronto su ${cfg.publicUrl}\n`);
  }
}

main(config).catch(async (err: unknown) => {
  log.fatal({ err }, 'start-up failed');
  console.error(`Avvio non riuscito: ${err instanceof Error ? err.message : String(err)}`);
  await embedded?.stop().catch(() => undefined);
  process.exit(1);
});
