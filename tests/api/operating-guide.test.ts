import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from '../../src/server/config.js';
import type { Mailer } from '../../src/server/integrations/mailer.js';
import { appJobs } from '../../src/server/jobs/app-jobs.js';
import { runOccurrence } from '../../src/server/jobs/scheduler.js';
import { createLogger } from '../../src/server/logger.js';
import { ManualClock } from '../../src/server/clock.js';
import { testConfig } from '../helpers/app.js';
import { STANDBY_SETTINGS } from '../helpers/replica-pair.js';
import { createTestDatabase } from '../helpers/db.js';
import { bundleEntryPoints, freePort, ROOT, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

/**
 * docs/OPERATING.md's fenced blocks (issue 24): each one is captioned as run, checked or not
 * run (with its reason). The `sh run` blocks run as written with bash — `npm run cli -- …`
 * through an `npm` on PATH that runs the CLI bundled from today's source, `curl` against a
 * real app process — and the `sql run` blocks on the app's database; the configuration
 * examples are parsed and held against the code.
 */

interface Block {
  lang: string;
  kind: string;
  code: string;
  caption: string;
  line: number;
}

function blocksOf(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(?: (\S+))?\s*$/.exec(lines[i]!);
    if (!open) continue;
    let caption = '';
    for (let j = i - 1; j >= 0; j--) {
      if (lines[j]!.trim() !== '') {
        caption = lines[j]!.trim();
        break;
      }
    }
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`unclosed block at line ${i + 1}`);
    blocks.push({ lang: open[1]!, kind: open[2] ?? '', code: lines.slice(i + 1, end).join('\n'), caption, line: i + 1 });
    i = end;
  }
  return blocks;
}

const CAPTIONS: Record<string, RegExp> = {
  run: /^\*▶ Run by the guide's test/,
  env: /^\*✓ Checked by the guide's test/,
  systemd: /^\*✓ Checked by the guide's test/,
  caddy: /^\*✓ Checked by the guide's test/,
  nginx: /^\*✓ Checked by the guide's test/,
  postgresql: /^\*✓ Checked by the guide's test/,
  patroni: /^\*✓ Checked by the guide's test/,
  haproxy: /^\*✓ Checked by the guide's test/,
  manual: /^\*Not run by the tests(?: yet)?: \S/,
};

let markdown: string;
let blocks: Block[];
const one = (kind: string) => {
  const found = blocks.filter((b) => b.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!;
};
/** KEY=VALUE lines of the guide's environment file. */
const envFile = () =>
  Object.fromEntries(
    one('env')
      .code.split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

type Yaml = string | number | boolean | { [key: string]: Yaml };

/**
 * The YAML the guide's Patroni example uses, and no more (no YAML parser is a dependency):
 * nested maps by indentation, `key: value` scalars, quoted strings, numbers and booleans.
 * Anything else (a list, a flow collection, a tab, a line indented under a scalar) throws.
 */
function parseYaml(code: string): { [key: string]: Yaml } {
  const root: { [key: string]: Yaml } = {};
  const stack: { indent: number; map: { [key: string]: Yaml } }[] = [{ indent: -1, map: root }];
  let opened: { indent: number; map: { [key: string]: Yaml } } | undefined;
  for (const [i, raw] of code.split('\n').entries()) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const m = /^( *)([A-Za-z_][\w.-]*): ?(.*)$/.exec(raw);
    if (!m || raw.includes('\t')) throw new Error(`yaml line ${i + 1}: not a key: ${raw}`);
    const indent = m[1]!.length;
    if (opened) {
      if (indent <= opened.indent) throw new Error(`yaml line ${i + 1}: an empty map above it`);
      stack.push(opened);
      opened = undefined;
    }
    while (stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)!.map;
    const text = m[3]!.trim();
    if (text === '') {
      const map = {};
      parent[m[2]!] = map;
      opened = { indent, map };
    } else if (/^['"].*['"]$/.test(text)) parent[m[2]!] = text.slice(1, -1);
    else if (/^(true|false)$/.test(text)) parent[m[2]!] = text === 'true';
    else if (/^\d+$/.test(text)) parent[m[2]!] = Number(text);
    else if (/^[[{&*!|>-]/.test(text)) throw new Error(`yaml line ${i + 1}: not a plain scalar: ${text}`);
    else parent[m[2]!] = text;
  }
  return root;
}

/** `a.b.c` of a parsed YAML map. */
const at = (doc: Yaml, keyPath: string): Yaml | undefined =>
  keyPath.split('.').reduce<Yaml | undefined>((v, k) => (v && typeof v === 'object' ? v[k] : undefined), doc);

/** `host:port` split, the port a number. */
const hostPort = (address: string) => {
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) };
};

beforeAll(async () => {
  markdown = await fs.readFile(path.join(ROOT, 'docs/OPERATING.md'), 'utf8');
  blocks = blocksOf(markdown);
});

describe('docs/OPERATING.md: every block says how it is tested', () => {
  it('each block is run, checked or says why not, and its caption says which', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(12);
    for (const b of blocks) {
      const caption = CAPTIONS[b.kind];
      expect(caption, `line ${b.line}: \`\`\`${b.lang} ${b.kind}`).toBeDefined();
      expect(b.caption, `line ${b.line}`).toMatch(caption!);
    }
    expect(blocks.filter((b) => b.kind === 'run').length).toBeGreaterThanOrEqual(6);
  });

  it('the environment variables it names exist (config.ts or .env.example)', async () => {
    const example = await fs.readFile(path.join(ROOT, '.env.example'), 'utf8');
    const known = new Set([...CONFIG_VARIABLES, ...[...example.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!)]);
    const named = new Set([...markdown.matchAll(/`\$?([A-Z][A-Z0-9]*_[A-Z0-9_]+)/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThan(15);
    expect([...named].filter((n) => !known.has(n))).toEqual([]);
  });
});

describe('docs/OPERATING.md: the configuration examples', () => {
  it('the environment file names only real variables and loads', () => {
    const env = envFile();
    expect(Object.keys(env).filter((k) => !CONFIG_VARIABLES.includes(k))).toEqual([]);
    const config = loadConfig(env);
    expect(config).toMatchObject({ trustProxy: true, host: '127.0.0.1', secureCookies: true, backup: { dir: '/var/backups/bicielis', keep: 14 } });
    expect(markdown).toContain('`/etc/bicielis/bicielis.env`');
  });

  it('the systemd unit runs `npm start`\'s command on what the build writes, and stops as main.ts does', async () => {
    const unit: Record<string, Record<string, string>> = {};
    let section = '';
    for (const raw of one('systemd').code.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const head = /^\[(\w+)\]$/.exec(line);
      if (head) {
        section = head[1]!;
        unit[section] = {};
        continue;
      }
      const eq = line.indexOf('=');
      expect(eq, line).toBeGreaterThan(0);
      unit[section]![line.slice(0, eq)] = line.slice(eq + 1);
    }
    const service = unit.Service!;
    const pkg = JSON.parse(await fs.readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toMatch(/^node /);
    expect(service.ExecStart).toBe(`/usr/bin/${pkg.scripts.start}`);
    // What `npm run build` writes: scripts/build-server.mjs bundles main.ts into dist/server/main.js.
    const buildServer = await fs.readFile(path.join(ROOT, 'scripts/build-server.mjs'), 'utf8');
    expect(buildServer).toMatch(/main: 'src\/server\/main\.ts'/);
    expect(buildServer).toMatch(/outdir: 'dist\/server'/);
    expect(service.ExecStart!.split(' ').at(-1)).toBe('dist/server/main.js');
    expect(service).toMatchObject({ KillSignal: 'SIGTERM', Restart: 'on-failure', EnvironmentFile: '/etc/bicielis/bicielis.env', User: 'bicielis' });
    expect(service.WorkingDirectory).toMatch(/^\//);
    // main.ts exits 1 when a drain takes longer than its forced-exit timer: systemd waits longer.
    const main = await fs.readFile(path.join(ROOT, 'src/server/main.ts'), 'utf8');
    const forced = Number(/\}, (\d+)_000 \+ cfg\.drainDelayMs\)\.unref\(\)/.exec(main)?.[1]);
    expect(forced).toBeGreaterThan(0);
    expect(Number(service.TimeoutStopSec)).toBeGreaterThan(forced);
    expect(unit.Install?.WantedBy).toBe('multi-user.target');
    // systemd's own parser, where this machine has it (Debian's systemd package; not in every
    // container): an unknown key or a bad value is a warning on stderr, a missing binary an error.
    const analyze = await promisify(execFile)('sh', ['-c', 'command -v systemd-analyze && test -x /usr/bin/node'], { env: process.env }).then(
      () => true,
      () => false,
    );
    if (analyze) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-unit-'));
      try {
        await fs.writeFile(path.join(dir, 'bicielis.service'), one('systemd').code);
        const { stderr } = await promisify(execFile)('systemd-analyze', ['verify', '--man=no', path.join(dir, 'bicielis.service')]);
        expect(stderr).toBe('');
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    }
  });

  it('Caddy and nginx forward to the environment file\'s HOST:PORT with the forwarded headers', () => {
    const { HOST, PORT } = envFile();
    const upstream = `${HOST}:${PORT}`;
    const balanced = (code: string) => [...code].filter((c) => c === '{').length === [...code].filter((c) => c === '}').length;
    const caddy = one('caddy').code;
    expect(balanced(caddy)).toBe(true);
    expect(caddy).toMatch(new RegExp(`^\\s*reverse_proxy ${upstream.replaceAll('.', '\\.')}\\b`, 'm'));
    const nginx = one('nginx').code;
    expect(balanced(nginx)).toBe(true);
    expect(nginx).toContain(`server ${upstream};`);
    for (const header of ['Host $host', 'X-Forwarded-For $proxy_add_x_forwarded_for', 'X-Forwarded-Proto $scheme', 'X-Forwarded-Host $host']) {
      expect(nginx).toContain(`proxy_set_header ${header};`);
    }
    // Every directive ends with `;` (or opens/closes a block).
    for (const line of nginx.split('\n').map((l) => l.trim())) {
      if (line && !line.startsWith('#')) expect(line, line).toMatch(/[;{}]$/);
    }
  });
});

describe('docs/OPERATING.md: a standby and fail-over (issue 50)', () => {
  /** `name = value` lines of the settings block, values unquoted. */
  const settings = () =>
    Object.fromEntries(
      one('postgresql')
        .code.split('\n')
        .filter((l) => l.trim() && !l.trim().startsWith('#'))
        .map((l) => {
          const m = /^(\w+) = (.+)$/.exec(l.trim());
          expect(m, l).not.toBeNull();
          return [m![1]!, m![2]!.replace(/^'(.*)'$/, '$1')];
        }),
    );

  it('the settings are PostgreSQL\'s, with values it accepts, and the ones the test\'s standby pair runs with', async () => {
    const wanted = settings();
    expect(Object.keys(wanted).sort()).toEqual(['hot_standby', 'max_wal_senders', 'synchronous_commit', 'synchronous_standby_names', 'wal_keep_size', 'wal_level']);
    const database = await createTestDatabase({ empty: true });
    try {
      const { rows } = await database.pool.query<{ name: string; vartype: string; enumvals: string[] | null; unit: string | null }>(
        'select name, vartype, enumvals, unit from pg_settings where name = any($1)',
        [Object.keys(wanted)],
      );
      expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(wanted).sort());
      for (const row of rows) {
        const value = wanted[row.name]!;
        if (row.vartype === 'enum') expect(row.enumvals, row.name).toContain(value);
        if (row.vartype === 'bool') expect(['on', 'off', 'true', 'false'], row.name).toContain(value);
        if (row.vartype === 'integer') expect(value, row.name).toMatch(row.unit === 'MB' ? /^\d+(kB|MB|GB|TB)?$/ : /^\d+$/);
      }
    } finally {
      await database.drop();
    }
    // What the fail-over test's primary and standby run with (tests/helpers/replica-pair.ts).
    expect(wanted).toMatchObject({ wal_level: STANDBY_SETTINGS.wal_level, synchronous_commit: STANDBY_SETTINGS.synchronous_commit, hot_standby: STANDBY_SETTINGS.hot_standby });
    // One standby, synchronous, named as Patroni names a member.
    expect(wanted.synchronous_standby_names).toMatch(/^FIRST 1 \(db\d\)$/);
  });

  it('Patroni keeps a synchronous standby, and HAProxy sends DATABASE_URL\'s address to the server whose Patroni says /primary', () => {
    const patroni = parseYaml(one('patroni').code);
    expect(at(patroni, 'bootstrap.dcs.synchronous_mode')).toBe(true);
    expect(at(patroni, 'bootstrap.dcs.synchronous_mode_strict')).toBe(false);
    expect(at(patroni, 'bootstrap.dcs.maximum_lag_on_failover')).toBe(0);
    // The settings block's values, as Patroni's parameters; the standby names are Patroni's to set.
    const parameters = at(patroni, 'bootstrap.dcs.postgresql.parameters') as Record<string, Yaml>;
    const { synchronous_standby_names: _own, ...shared } = settings();
    expect(Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, String(v)]))).toEqual(shared);
    const rest = hostPort(at(patroni, 'restapi.listen') as string);
    const postgres = hostPort(at(patroni, 'postgresql.listen') as string);
    expect(rest.port).toBe(8008);
    const member = at(patroni, 'name') as string;
    const memberHost = hostPort(at(patroni, 'postgresql.connect_address') as string);
    expect(hostPort(at(patroni, 'restapi.connect_address') as string)).toEqual({ host: memberHost.host, port: rest.port });
    expect(memberHost.port).toBe(postgres.port);

    const haproxy = one('haproxy').code.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(haproxy[0]).toMatch(/^listen \S+$/);
    for (const line of haproxy.slice(1)) expect(line, line).toMatch(/^ {4}\S/);
    const directives = haproxy.slice(1).map((l) => l.trim());
    const has = (d: string) => expect(directives, d).toContain(d);
    has('mode tcp');
    has('option httpchk GET /primary');
    has('http-check expect status 200');
    expect(directives.find((d) => d.startsWith('default-server '))).toMatch(/\bon-marked-down shutdown-sessions\b/);
    // It listens where the app's DATABASE_URL (the environment file) points.
    const databaseUrl = new URL(envFile().DATABASE_URL!);
    expect(directives).toContain(`bind ${databaseUrl.hostname}:${databaseUrl.port}`);
    // Each server: PostgreSQL's port, checked on Patroni's REST port; this member among them.
    const servers = directives.filter((d) => d.startsWith('server ')).map((d) => /^server (\S+) (\S+) (.*)$/.exec(d)!);
    expect(servers.length).toBeGreaterThanOrEqual(2);
    for (const [line, , address, options] of servers) {
      expect(hostPort(address!).port, line).toBe(postgres.port);
      expect(options, line).toMatch(new RegExp(`\\bcheck port ${rest.port}\\b`));
    }
    expect(servers.map(([, name, address]) => `${name} ${hostPort(address!).host}`)).toContain(`${member} ${memberHost.host}`);
    // Idle connections (the LISTEN one) outlive the app's keep-alive, not cut every few seconds.
    for (const side of ['client', 'server']) expect(directives.find((d) => d.startsWith(`timeout ${side} `)), side).toMatch(/ (\d+m|\d+h)$/);
  });

  it('the YAML reader refuses what it does not understand', () => {
    expect(parseYaml('a:\n  b: 1\n  c: \'on\'\nd: true')).toEqual({ a: { b: 1, c: 'on' }, d: true });
    expect(() => parseYaml('a:\n  - x')).toThrow(/not a key/);
    expect(() => parseYaml('a: [1, 2]')).toThrow(/not a plain scalar/);
  });
});

describe('docs/OPERATING.md: the commands', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
  let server: ServerProcess | undefined;
  let tmp: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query(`insert into biciclette (numero, modello) values ('OG-1', 'City'), ('OG-2', 'Mountain')`);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-guide-'));
    const backupDir = path.join(tmp, 'backups');
    bundle = await bundleEntryPoints('operating-guide');
    // `npm run cli -- …` as written in the guide, through the CLI bundled from today's source;
    // any other npm command fails the block.
    const bin = path.join(tmp, 'bin');
    await fs.mkdir(bin);
    await fs.writeFile(
      path.join(bin, 'npm'),
      `#!/bin/sh\nif [ "$1" = run ] && [ "$2" = cli ] && [ "$3" = -- ]; then shift 3; exec node ${JSON.stringify(bundle.file('cli'))} "$@"; fi\n` +
        'echo "npm $* is not run by the guide\'s test" >&2\nexit 97\n',
      { mode: 0o755 },
    );
    const port = String(await freePort());
    env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      DATA_DIR: path.join(tmp, 'data'),
      BACKUP_DIR: backupDir,
      PORT: port,
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    };
    // A nightly backup, as the job makes it (run through the scheduler: job_runs has its row).
    const silent: Mailer = {
      send: () => Promise.reject(new Error('no email expected')),
      sendInBackground: () => undefined,
      idle: async () => undefined,
      close: async () => undefined,
    };
    const config = testConfig({ BACKUP_DIR: backupDir });
    const job = appJobs({ database, clock: new ManualClock(new Date()), mailer: silent, config, log: createLogger('silent') }).find((j) => j.name === 'db-backup')!;
    expect(await runOccurrence(database.pool, job, new Date(Date.now() - 60_000))).toBe(true);
    server = await startServer(['node', bundle.file('main')], {
      PORT: port,
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: path.join(tmp, 'data'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
    });
  });
  afterAll(async () => {
    if (server) {
      stopGroup(server.child, 'SIGTERM');
      await waitForExit(server.child).catch(() => stopGroup(server!.child, 'SIGKILL'));
    }
    await bundle?.remove();
    await database?.drop();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('every `sh run` block runs as written and says what the guide says', async () => {
    const exec = promisify(execFile);
    const shell = blocks.filter((b) => b.kind === 'run' && b.lang === 'sh');
    expect(shell.length).toBeGreaterThanOrEqual(4);
    const seen = new Set<string>();
    for (const b of shell) {
      const { stdout } = await exec('bash', ['-euo', 'pipefail', '-c', b.code], { cwd: ROOT, env }).catch((err: unknown) => {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`block at line ${b.line} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
      });
      const expectations: [RegExp, RegExp][] = [
        [/db backup/, /Backup completato: .*before-upgrade\.bicielis\.gz/],
        [/db verify/, /Backup utilizzabile: \d+ righe in \d+ tabelle/],
        [/db restore/, /Ripristino completato/],
        [/\/api\/health/, /"status":"ok"/],
        [/\/api\/ready/, /"status":"ready"/],
        [/\/metrics/, /^bicielis_db_pool_connections\{state="in_use"\} \d+$/m],
      ];
      for (const [command, output] of expectations) {
        if (!command.test(b.code)) continue;
        expect(stdout, `line ${b.line}`).toMatch(output);
        seen.add(command.source);
      }
    }
    expect(seen.size).toBe(6);
    // The drill's block verified the nightly file, not the manual one.
    expect((await fs.readdir(env.BACKUP_DIR!)).filter((n) => /^bicielis-.*Z\.bicielis\.gz$/.test(n))).toHaveLength(1);
    // The restore gave back the data the backup holds.
    const { rows } = await database.pool.query(`select numero from biciclette where numero like 'OG-%' order by 1`);
    expect(rows).toEqual([{ numero: 'OG-1' }, { numero: 'OG-2' }]);
  });

  it('every `sql run` block runs on the app\'s database', async () => {
    const sqlBlocks = blocks.filter((b) => b.kind === 'run' && b.lang === 'sql');
    expect(sqlBlocks.length).toBeGreaterThanOrEqual(2);
    for (const b of sqlBlocks) {
      const result = await database.pool.query(b.code);
      const results = Array.isArray(result) ? result : [result];
      expect(results.length, `line ${b.line}`).toBeGreaterThan(0);
      if (b.code.includes("job = 'db-backup'")) {
        const last = results.at(-1)!.rows[0] as { last_good_backup: Date | null };
        expect(last.last_good_backup).toBeInstanceOf(Date);
      }
      if (b.code.includes('bicielis-listener')) {
        const row = results[0]!.rows[0] as { connections: string; listeners: string };
        // The app process started above holds its LISTEN connection.
        expect(Number(row.listeners)).toBe(1);
      }
    }
  });
});
