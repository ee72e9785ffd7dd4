import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/server/cli.js';
import { biciclette, residenti, users } from '../../src/server/schema.js';
import { verifyPassword } from '../../src/server/modules/auth/password.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;
const config = testConfig();

async function run(...argv: string[]) {
  const lines: string[] = [];
  const code = await runCommand(argv, { config, database, out: (l) => lines.push(l) });
  return { code, output: lines.join('\n') };
}

async function file(name: string, content: string) {
  const p = path.join(dir, name);
  await fs.writeFile(p, content);
  return p;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-cli-'));
});
afterAll(async () => {
  await database.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('residents import', () => {
  it('inserts, then updates by sigla (case-insensitive), and names rejected rows', async () => {
    const first = await file(
      'r1.csv',
      'sigla,nome,cognome,corsoDiStudi,annoCorso,attivo\nabc1,Mario,Neri,Fisica,2,true\nABC2,Anna,Gialli,,1,si\n',
    );
    expect(await run('residents', 'import', first)).toEqual({
      code: 0,
      output: 'Sigle residenti: 2 inserite, 0 aggiornate, 0 scartate',
    });
    const second = await file(
      'r2.csv',
      [
        'sigla,nome,cognome,corsoDiStudi,annoCorso,attivo',
        'Abc1,Mario,Neri,Chimica,3,no',
        'ABC3,Luca,,Storia,1,1',
        'ABC4,Pia,Blu,Arte,12,0',
        'ABC5,Ugo,Viola,Arte,1,forse',
        'ABC6,Ada,Rosa,,,0',
        'abc6,Ada,Rosa,,,0',
      ].join('\n'),
    );
    const { code, output } = await run('residents', 'import', second);
    expect(code).toBe(0);
    expect(output).toContain('Sigle residenti: 1 inserite, 1 aggiornate, 4 scartate');
    expect(output).toMatch(/riga 3: cognome/);
    expect(output).toMatch(/riga 4: annoCorso/);
    expect(output).toMatch(/riga 5: attivo/);
    expect(output).toMatch(/riga 7: sigla ABC6 già presente alla riga 6/);
    const [abc1] = await database.db.select().from(residenti).where(eq(residenti.sigla, 'ABC1'));
    expect(abc1).toMatchObject({ corsoDiStudi: 'Chimica', annoCorso: 3, attivo: false });
  });

  it('changes nothing when the file is malformed', async () => {
    const before = await database.db.select().from(residenti);
    const badHeader = await file('bad1.csv', 'sigla,nome\nX1,Pippo\n');
    const r1 = await run('residents', 'import', badHeader);
    expect(r1.code).toBe(1);
    expect(r1.output).toMatch(/nessuna modifica.*colonne mancanti: cognome/);
    const badQuotes = await file('bad2.csv', 'sigla,nome,cognome,corsoDiStudi,annoCorso,attivo\nZZ1,"Pi,Neri,a,1,true\n');
    const r2 = await run('residents', 'import', badQuotes);
    expect(r2.code).toBe(1);
    expect(r2.output).toMatch(/CSV non leggibile/);
    expect(await database.db.select().from(residenti)).toEqual(before);
  });

  it('explains how to use it', async () => {
    expect((await run('residents', 'import')).code).toBe(2);
    expect((await run('nonsense')).output).toMatch(/Uso: npm run cli/);
    // Every command is in the usage text, db verify (issue 24) included.
    const usage = (await run('db', 'verify')).output;
    expect(usage).toMatch(/^Serve un solo argomento: il file di backup/);
    for (const command of ['residents import', 'bikes import', 'admin create', 'report generate', 'db backup', 'db restore', 'db verify']) {
      expect(usage).toContain(`  ${command} `);
    }
  });
});

describe('bikes import', () => {
  it('upserts by numero and keeps the state when the row has none', async () => {
    const a = await file('b1.csv', 'numero,modello,stato\n101,City One,manutenzione\n102,Mountain Two,\n');
    expect((await run('bikes', 'import', a)).output).toBe('Biciclette: 2 inserite, 0 aggiornate, 0 scartate');
    const b = await file('b2.csv', 'numero,modello\n101,City One Plus\n103,Hybrid\n,Senza numero\n');
    const { output } = await run('bikes', 'import', b);
    expect(output).toContain('Biciclette: 1 inserite, 1 aggiornate, 1 scartate');
    const [b101] = await database.db.select().from(biciclette).where(eq(biciclette.numero, '101'));
    expect(b101).toMatchObject({ modello: 'City One Plus', stato: 'manutenzione' });
    const bad = await file('b3.csv', 'numero,modello,stato\n104,City,rotta\n');
    expect((await run('bikes', 'import', bad)).output).toMatch(/riga 2: stato/);
  });
});

describe('admin create', () => {
  it('creates an admin with a hashed password, once', async () => {
    const r = await run('admin', 'create', 'Capo@Collegio.IT', 'segreta123', 'Carla', 'Capo');
    expect(r.code).toBe(0);
    const [u] = await database.db.select().from(users).where(eq(users.email, 'capo@collegio.it'));
    expect(u).toMatchObject({ ruolo: 'admin', nome: 'Carla', cognome: 'Capo' });
    expect(u!.passwordHash).not.toContain('segreta123');
    expect(await verifyPassword(u!.passwordHash, 'segreta123')).toBe(true);
    expect((await run('admin', 'create', 'capo@collegio.it', 'altra123')).code).toBe(1);
    expect((await run('admin', 'create', 'x@y.it', '123')).output).toMatch(/almeno 6/);
  });
});
