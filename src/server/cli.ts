import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../shared/constants.js';
import { normaliseEmail } from '../shared/sigla.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { backupDatabase, BackupError, restoreDatabase, type BackupSummary } from './db/backup.js';
import { connectDatabase, pgErrorCode, type Database } from './db/client.js';
import { verifyBackup } from './db/verify.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
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
};

/** Runs one CLI command against a database; returns the exit code. Exported for tests. */
export async function runCommand(argv: string[], ctx: Omit<CliContext, 'out'> & { out?: CliContext['out'] }) {
  const key = argv.slice(0, 2).join(' ');
  const command = COMMANDS[key];
  const out = ctx.out ?? ((line: string) => console.log(line));
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
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.dataDir, log, { shareRunning: true });
    url = embedded.url;
  }
  const database = connectDatabase(url, { max: 2 });
  try {
    await runMigrations(database.db, undefined, { sedePredefinita: config.sedePredefinita });
    return await runCommand(argv, { config, database, databaseUrl: url });
  } finally {
    await database.close();
    await embedded?.stop();
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
