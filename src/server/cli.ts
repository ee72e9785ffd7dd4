import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../shared/constants.js';
import { normaliseEmail } from '../shared/sigla.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { backupDatabase, BackupError, restoreDatabase, type BackupSummary } from './db/backup.js';
import { connectDatabase, pgErrorCode, type Database } from './db/client.js';
import { verifyBackup } from './db/verify.js';
import { embeddedRunAs, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { formatInZone, parseRecoveryTarget, RestoreRefused, restoreToTime } from './db/point-in-time.js';
import { openWalArchive, verifyArchive, type OpenArchive } from './db/wal-archive.js';
import { baseBackups } from './jobs/base-backup-job.js';
import { JOB_LOCKS, runExclusive } from './jobs/scheduler.js';
import type { Logger } from './logger.js';
import { runMigrations } from './db/migrate.js';
import { insertAccounts } from './modules/users/index.js';
import { createLogger } from './logger.js';
import { hashPassword } from './modules/auth/index.js';
import { importBikes } from './modules/bikes/index.js';
import { importResidents, MalformedFileError, type ImportReport } from './modules/residents/index.js';
import { emailReport, generateReport } from './modules/reports/index.js';
import { isRealDate, zonedToday } from '../shared/time.js';
import { systemClock, type Clock } from './clock.js';
import { mailerFromConfig, type Mailer } from './integrations/mailer.js';

const USAGE = `Uso: npm run cli -- <comando>

Comandi:
  residents import <file.csv>                    importa o aggiorna le sigle dei residenti
                                                 (intestazione: sigla,nome,cognome,corsoDiStudi,annoCorso,attivo)
  bikes import <file.csv>                        importa o aggiorna le biciclette (intestazione: numero,modello[,stato])
  admin create <email> <password> [nome] [cognome]  crea un amministratore
  report generate [AAAA-MM-GG] [--send]          genera (o rigenera) il report PDF del giorno (default: oggi
                                                 in TZ_APP); con --send lo invia a REPORT_EMAIL
  db backup <file>                               salva tutto il database (incorporato o DATABASE_URL) in un file
                                                 compresso; si può fare con l'app in funzione
  db restore <file>                              sostituisce TUTTI i dati del database con quelli del backup, in
                                                 una sola transazione (meglio con l'app ferma); lo schema deve
                                                 avere le stesse migrazioni del backup
  db verify <file>                               prova il backup: lo ripristina in un database temporaneo
                                                 sullo stesso server, conta le righe di ogni tabella, poi
                                                 cancella il database temporaneo (i dati in uso non cambiano)

Solo con il database incorporato (senza DATABASE_URL), archivio in WAL_ARCHIVE_DIR:
  db base-backup                                 copia di base del database in WAL_ARCHIVE_DIR/base (anche con
                                                 l'app in funzione), poi toglie quelle oltre WAL_RETENTION_DAYS
  db restore --at "AAAA-MM-GG hh:mm:ss"          riporta il database a quel secondo (ora di TZ_APP, oppure con
                                                 l'offset: 2026-12-01T10:15:30+01:00); ad app ferma. La cartella
                                                 di prima resta accanto, postgres.before-restore-<istante>
  db verify                                      (senza file) controlla che all'archivio del log non manchi
                                                 nessun segmento dall'ultima copia di base a oggi
`;

class UsageError extends Error {}

interface CliContext {
  config: Config;
  database: Database;
  out: (line: string) => void;
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: from the configuration (SMTP_URL or the outbox). */
  mailer?: Mailer;
  /** The database's address (`db verify` creates its scratch database beside it); default: the pool's. */
  databaseUrl?: string;
  /** The embedded cluster (`db base-backup` copies it); absent with DATABASE_URL. */
  embedded?: Pick<EmbeddedDatabase, 'adminUrl' | 'pgDir'> | undefined;
}

type Command = (ctx: CliContext, args: string[]) => Promise<number>;

async function readCsv(file: string | undefined): Promise<string> {
  if (!file) throw new UsageError('Manca il file CSV');
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    throw new Error(`File non leggibile: ${file}`);
  }
}

function printReport(out: CliContext['out'], what: string, report: ImportReport) {
  out(`${what}: ${report.inserted} inserite, ${report.updated} aggiornate, ${report.rejected.length} scartate`);
  for (const r of report.rejected) out(`  riga ${r.line}: ${r.reason}`);
}

const importCommand =
  (what: string, run: (db: Database['db'], csv: string) => Promise<ImportReport>): Command =>
  async (ctx, [file]) => {
    const csv = await readCsv(file);
    try {
      printReport(ctx.out, what, await run(ctx.database.db, csv));
      return 0;
    } catch (err) {
      if (err instanceof MalformedFileError) {
        ctx.out(`File non valido, nessuna modifica: ${err.message}`);
        return 1;
      }
      throw err;
    }
  };

const adminArgs = z.object({
  email: z.email({ error: 'email non valida' }),
  password: z.string().min(PASSWORD_MIN, `la password deve avere almeno ${PASSWORD_MIN} caratteri`).max(PASSWORD_MAX),
  nome: z.string().min(1).max(100),
  cognome: z.string().min(1).max(100),
});

const adminCreate: Command = async (ctx, [email, password, nome = 'Amministratore', cognome = 'BiciElis']) => {
  if (!email || !password) throw new UsageError('Servono email e password');
  const parsed = adminArgs.safeParse({ email: normaliseEmail(email), password, nome, cognome });
  if (!parsed.success) {
    ctx.out(`Dati non validi: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    return 1;
  }
  try {
    const [row] = await insertAccounts(ctx.database.db, [{ ...parsed.data, passwordHash: await hashPassword(parsed.data.password), ruolo: 'admin' }]);
    ctx.out(`Amministratore creato: ${parsed.data.email} (id ${row!.id})`);
    return 0;
  } catch (err) {
    if (pgErrorCode(err) === '23505') {
      ctx.out(`Esiste già un account con email ${parsed.data.email}`);
      return 1;
    }
    throw err;
  }
};

const reportGenerate: Command = async (ctx, args) => {
  const send = args.includes('--send');
  const rest = args.filter((a) => a !== '--send');
  const clock = ctx.clock ?? systemClock;
  const date = rest[0] ?? zonedToday(clock.now(), ctx.config.timeZone);
  if (rest.length > 1 || !isRealDate(date)) throw new UsageError(`Data non valida: ${rest.join(' ')} (formato AAAA-MM-GG)`);
  const silent = { info: () => undefined, error: () => undefined };
  const mailer = ctx.mailer ?? mailerFromConfig(ctx.config, silent);
  const deps = { db: ctx.database.db, clock, mailer, config: ctx.config, log: silent };
  try {
    const r = await generateReport(deps, date, { replace: true });
    ctx.out(`Report del ${date} ${r.outcome === 'replaced' ? 'rigenerato (sostituito il precedente)' : 'generato'}: ${r.fileSize} byte (id ${r.id})`);
    if (!send) return 0;
    if (!ctx.config.reportEmail) {
      ctx.out('REPORT_EMAIL non impostata: report salvato, non inviato');
      return 1;
    }
    if (await emailReport({ ...deps, log: { info: () => undefined, error: (o) => ctx.out(`Invio non riuscito: ${errorText(o)}`) } }, r.id)) {
      ctx.out(`Inviato a ${ctx.config.reportEmail}`);
      return 0;
    }
    return 1;
  } finally {
    if (!ctx.mailer) await mailer.close();
  }
};

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function printTables(out: CliContext['out'], summary: BackupSummary) {
  const width = Math.max(...summary.tables.map((t) => t.table.length));
  for (const t of summary.tables) {
    out(`  ${t.table.padEnd(width)}  ${String(t.rows).padStart(8)} ${t.rows === 1 ? 'riga ' : 'righe'}  ${kB(t.bytes).padStart(12)}`);
  }
}

const dbBackup: Command = async (ctx, args) => {
  const [file] = args;
  if (!file || args.length > 1) throw new UsageError('Serve un solo argomento: il file di backup');
  try {
    const s = await backupDatabase(ctx.database.pool, file);
    printTables(ctx.out, s);
    ctx.out(
      `Backup completato: ${file} — ${s.rows} righe in ${s.tables.length} tabelle, ${kB(s.fileBytes)} compressi, ` +
        `${s.seconds.toFixed(2)} s (PostgreSQL ${s.header.serverVersion}, ${s.header.migrations.length} migrazioni)`,
    );
    return 0;
  } catch (err) {
    ctx.out(`Backup non riuscito, nessun file scritto: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
};

const dbRestore: Command = async (ctx, args) => {
  const [file] = args;
  if (!file || args.length > 1) throw new UsageError('Serve un solo argomento: il file di backup');
  try {
    const s = await restoreDatabase(ctx.database.pool, file);
    printTables(ctx.out, s);
    ctx.out(
      `Ripristino completato da ${file} (backup del ${s.header.createdAt}) — ${s.rows} righe in ${s.tables.length} tabelle, ` +
        `${kB(s.fileBytes)} letti, ${s.seconds.toFixed(2)} s`,
    );
    return 0;
  } catch (err) {
    const why = err instanceof BackupError ? err.message : `errore del database: ${err instanceof Error ? err.message : String(err)}`;
    ctx.out(`Ripristino non riuscito, nessuna modifica al database. ${why}`);
    return 1;
  }
};

const dbVerify: Command = async (ctx, args) => {
  const [file] = args;
  if (!file || args.length > 1) throw new UsageError('Serve un solo argomento: il file di backup');
  const url = ctx.databaseUrl ?? (ctx.database.pool.options as { connectionString?: string }).connectionString;
  if (!url) throw new Error('indirizzo del database non disponibile');
  try {
    const v = await verifyBackup(ctx.database.pool, url, file, (name) =>
      ctx.out(`Ripristino di prova di ${file} nel database temporaneo ${name} (cancellato alla fine)…`),
    );
    const width = Math.max(...v.tables.map((t) => t.table.length));
    ctx.out(`Backup del ${v.header.createdAt} (PostgreSQL ${v.header.serverVersion}, ${v.header.migrations.length} migrazioni):`);
    for (const t of v.tables) {
      const outcome = t.expected === t.found ? 'OK' : `DIVERSO: ${t.expected} nel file`;
      ctx.out(`  ${t.table.padEnd(width)}  ${String(t.found).padStart(8)} ${t.found === 1 ? 'riga ' : 'righe'}  ${outcome}`);
    }
    if (!v.ok) {
      const bad = v.tables.filter((t) => t.expected !== t.found).map((t) => t.table);
      ctx.out(`Verifica non riuscita: il backup NON è utilizzabile. Righe diverse dall'intestazione in: ${bad.join(', ')}.`);
      return 1;
    }
    ctx.out(
      `Backup utilizzabile: ${v.rows} righe in ${v.tables.length} tabelle ripristinate e contate in un database temporaneo ` +
        `(già cancellato), ${kB(v.fileBytes)}, ${v.seconds.toFixed(2)} s. Il database in uso non è stato toccato.`,
    );
    return 0;
  } catch (err) {
    const why = err instanceof BackupError ? err.message : `errore del database: ${err instanceof Error ? err.message : String(err)}`;
    ctx.out(`Verifica non riuscita: il backup NON è utilizzabile. ${why}`);
    return 1;
  }
};

const NO_ARCHIVE =
  'Con DATABASE_URL il log e le copie di base sono compito del fornitore del database (docs/OPERATING.md, "Recupero a un istante"): questo comando vale solo per il database incorporato.';

const dbBaseBackup: Command = async (ctx, args) => {
  if (args.length > 0) throw new UsageError('db base-backup non vuole argomenti');
  const archive = ctx.config.walArchive;
  if (!archive || !ctx.embedded) {
    ctx.out(NO_ARCHIVE);
    return 1;
  }
  const silent = createLogger('silent');
  const backups = baseBackups(ctx.embedded, archive, silent);
  let run: Awaited<ReturnType<typeof backups.take>> | undefined;
  let ran: boolean;
  try {
    ran = await runExclusive(ctx.database.pool, JOB_LOCKS.baseBackup, async () => (run = await backups.take()));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const hint = /statement timeout/.test(why) ? ` (il log necessario non è stato archiviato in tempo: controlla ${archive.dir} e le righe di PostgreSQL)` : '';
    ctx.out(`Copia di base non riuscita, nessuna copia lasciata: ${why}${hint}`);
    return 1;
  }
  if (!ran || !run) {
    ctx.out('Un\'altra copia di base è in corso (l\'app, o un altro comando): riprova quando è finita.');
    return 1;
  }
  const r: typeof run = run;
  const tz = ctx.config.timeZone;
  ctx.out(
    `Copia di base ${r.backup.name} in ${r.backup.dir}: ${(r.bytes / 1024 / 1024).toFixed(1)} MB, ${r.seconds.toFixed(2)} s ` +
      `(dalle ${formatInZone(new Date(r.backup.startedAt), tz)} alle ${formatInZone(new Date(r.backup.finishedAt), tz)} ${tz}, timeline ${r.backup.timeline}).`,
  );
  if (r.pruned.backups.length > 0 || r.pruned.segments > 0) {
    ctx.out(`Tolte perché oltre ${archive.retentionDays} giorni: ${r.pruned.backups.length} copie di base (${r.pruned.backups.join(', ') || '—'}), ${r.pruned.segments} segmenti di log.`);
  }
  return 0;
};

/**
 * `db restore --at …`, and `db verify` without a file on the embedded database: the archive's
 * commands, run with no database open. With DATABASE_URL, `db verify` alone stays the usage
 * error it was (a file is missing).
 */
export function isArchiveCommand(argv: string[], config: Config): boolean {
  if (argv[0] !== 'db') return false;
  return (argv[1] === 'restore' && argv.includes('--at')) || (argv[1] === 'verify' && argv.length === 2 && config.walArchive !== undefined);
}

async function runArchiveCommand(argv: string[], config: Config, out: CliContext['out'], log: Logger): Promise<number> {
  const archive = config.walArchive;
  if (!archive) {
    out(NO_ARCHIVE);
    return 1;
  }
  const tz = config.timeZone;
  if (argv[1] === 'verify') {
    const check = await verifyArchive(archive.dir);
    if (!check.base) {
      out(`Nessuna copia di base in ${archive.dir}/base: il ripristino a un istante non ha da dove partire. Fanne una: npm run cli -- db base-backup`);
      return 1;
    }
    const from = `dalla copia di base ${check.base.name} (finita alle ${formatInZone(new Date(check.base.finishedAt), tz)} ${tz})`;
    if (!check.ok) {
      out(`Archivio del log INCOMPLETO ${from}: mancano ${check.missing.length} file su ${check.present + check.missing.length}:`);
      for (const name of check.missing.slice(0, 50)) out(`  ${name}`);
      if (check.missing.length > 50) out(`  … e altri ${check.missing.length - 50}`);
      out('Un ripristino a un istante dopo il primo file mancante non è possibile. Fai subito una copia di base: npm run cli -- db base-backup');
      return 1;
    }
    out(`Archivio del log completo ${from}: ${check.present} segmenti, da ${check.first} a ${check.last} (timeline ${check.latestTimeline}).`);
    return 0;
  }
  const at = argv[argv.indexOf('--at') + 1];
  const rest = argv.slice(2).filter((a, i, all) => a !== '--at' && all[i - 1] !== '--at');
  if (!at || rest.length > 0) throw new UsageError('Serve un solo istante: db restore --at "AAAA-MM-GG hh:mm:ss"');
  const parsed = parseRecoveryTarget(at, tz);
  if (!parsed.ok) {
    out(parsed.reason);
    return 1;
  }
  try {
    const r = await restoreToTime({ dataDir: config.dataDir, archive, target: parsed.at, timeZone: tz, log, out });
    const last = r.lastTransaction ? `ultima transazione ripristinata delle ${formatInZone(r.lastTransaction, tz)}` : 'nessuna transazione dopo la copia di base';
    out(
      `Ripristino completato: il database è come alle ${formatInZone(parsed.at, tz)} (${tz}) — ${last}; timeline ${r.timeline}, ${r.seconds.toFixed(1)} s.`,
    );
    if (r.before) out(`Il database di prima è in ${r.before}: cancellalo quando il ripristino ti va bene.`);
    out('Avvia l\'app: al primo avvio fa una nuova copia di base.');
    return 0;
  } catch (err) {
    if (err instanceof RestoreRefused) {
      out(`Ripristino rifiutato, nessuna modifica: ${err.message}`);
      return 1;
    }
    out(`Ripristino non riuscito, il database in uso non è stato toccato: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

const errorText = (o: object) => {
  const err = (o as { err?: unknown }).err;
  return err instanceof Error ? err.message : String(err);
};

export const COMMANDS: Record<string, Command> = {
  'residents import': importCommand('Sigle residenti', importResidents),
  'bikes import': importCommand('Biciclette', importBikes),
  'admin create': adminCreate,
  'report generate': reportGenerate,
  'db backup': dbBackup,
  'db restore': dbRestore,
  'db verify': dbVerify,
  'db base-backup': dbBaseBackup,
};

/** Runs one CLI command against a database; returns the exit code. Exported for tests. */
export async function runCommand(argv: string[], ctx: Omit<CliContext, 'out'> & { out?: CliContext['out'] }) {
  const key = argv.slice(0, 2).join(' ');
  const command = COMMANDS[key];
  const out = ctx.out ?? ((line: string) => console.log(line));
  try {
    if (isArchiveCommand(argv, ctx.config)) return await runArchiveCommand(argv, ctx.config, out, createLogger('silent'));
  } catch (err) {
    if (err instanceof UsageError) {
      out(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (!command) {
    out(USAGE);
    return 2;
  }
  try {
    return await command({ ...ctx, out }, argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      out(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
}

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // The archive's restore and check open no database: the restore starts its own servers.
  if (isArchiveCommand(argv, config)) {
    try {
      return await runArchiveCommand(argv, config, (line) => console.log(line), log);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      console.log(`${err.message}\n\n${USAGE}`);
      return 2;
    }
  }
  let embedded: EmbeddedDatabase | undefined;
  let archive: OpenArchive | undefined;
  let url = config.databaseUrl;
  if (!url) {
    // Started by the CLI (the app stopped), the cluster archives its log as under the app: a
    // segment written now and not archived would be a gap in the archive (decision 056).
    if (config.walArchive) archive = await openWalArchive(config.walArchive, embeddedRunAs(log));
    embedded = await startEmbeddedPostgres(config.dataDir, log, { shareRunning: true, ...archive?.startOptions });
    url = embedded.url;
  }
  const database = connectDatabase(url, { max: 2 });
  try {
    await runMigrations(database.db, undefined, { sedePredefinita: config.sedePredefinita });
    return await runCommand(argv, { config, database, databaseUrl: url, embedded });
  } finally {
    await database.close();
    await embedded?.stop();
    archive?.close();
  }
}

const isEntryPoint = process.argv[1] && /cli\.(js|ts)$/.test(process.argv[1]);
if (isEntryPoint) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof ConfigError) console.error(err.message);
      else console.error(`Errore: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
