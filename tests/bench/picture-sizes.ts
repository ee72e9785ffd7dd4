/**
 * Issue 51, decision 064: the fleet picture's reading at the scale bench's two sizes, one
 * statement after another in this process (no load): median ms of 15, and the buffers and rows
 * one reading touches (EXPLAIN (ANALYZE, BUFFERS): these do not move with the machine's load).
 *
 *   npm run bench -- picture-sizes
 *
 * Seeds with the scale bench's `seedScale` (then a checkpoint) (PICTURE_PAST=n writes n past bookings instead of the
 * size's own: the picture reads none of them). With BEFORE_MODULE=<path of a copy of the former
 * availability.ts> it measures that module's statement (every sede's picture) beside, back to back.
 */
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { fleetPictureStatement } from '../../src/server/modules/bookings/availability.js';
import { zonedToday } from '../../src/shared/time.js';
import { benchDatabase, fmt } from './harness.js';
import { SIZES, seedScale } from './scale.js';

const TZ = 'Europe/Rome';
const ROUNDS = 15;
const minutes = { hold: 30, noShow: 30 };

type Statement = (at: string, cover: string) => SQL;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function prenotazioniRead(node: PlanNode): number {
  const own = node['Relation Name'] === 'prenotazioni' || node['Index Name']?.startsWith('prenotazioni_') ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((n, c) => n + prenotazioniRead(c), 0);
}

export async function benchPictureSizes(): Promise<boolean> {
  const before = process.env.BEFORE_MODULE
    ? ((await import(path.resolve(process.env.BEFORE_MODULE))) as { fleetPictureStatement: (at: string, m: typeof minutes, cover: string) => SQL })
    : undefined;
  const today = zonedToday(new Date(), TZ);
  console.log(`## The fleet picture at the scale bench's sizes (decision 064) — load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('| size | statement | median ms | buffers | prenotazioni rows + index entries |');
  console.log('|---|---|--:|--:|--:|');
  for (const base of SIZES.filter((s) => !process.env.SCALE_ONLY || s.name === `${process.env.SCALE_ONLY}×`)) {
    const size = { ...base, past: Number(process.env.PICTURE_PAST ?? base.past) };
    const bench = await benchDatabase();
    try {
      const { db } = bench.database;
      const t = performance.now();
      await seedScale(bench.database, size, today, 0);
      const seeded = ((performance.now() - t) / 1000).toFixed(0);
      // The seed's dirty pages written out first, not during the timing.
      await db.execute(sql`checkpoint`);
      const statements: [string, Statement][] = [['one sede (after)', (at, cover) => fleetPictureStatement(1, at, minutes, cover)]];
      if (before) statements.unshift(['every sede (before)', (at, cover) => before.fleetPictureStatement(at, minutes, cover)]);
      const times = new Map<string, number[]>(statements.map(([name]) => [name, []]));
      for (let i = 0; i < ROUNDS + 3; i++) {
        for (const [name, statement] of statements) {
          const now = new Date();
          const start = performance.now();
          await db.execute(statement(now.toISOString(), new Date(now.getTime() - 15 * 60_000).toISOString()));
          if (i >= 3) times.get(name)!.push(performance.now() - start);
        }
      }
      for (const [name, statement] of statements) {
        const now = new Date();
        const { rows } = await db.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          sql`explain (analyze, buffers, format json) ${statement(now.toISOString(), new Date(now.getTime() - 15 * 60_000).toISOString())}`,
        );
        const explained = rows[0]!['QUERY PLAN'][0] as { Plan: PlanNode; 'Planning Time'?: number; 'Execution Time'?: number; JIT?: { Timing?: { Total?: number } } };
        const plan = explained.Plan;
        if (process.env.PICTURE_TIMES) {
          console.log(`      ${name}: planning ${explained['Planning Time']} ms, execution ${explained['Execution Time']} ms, JIT ${explained.JIT?.Timing?.Total ?? 'none'}`);
        }
        const buffers = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
        console.log(
          `| ${size.name} (${size.sedi} sed${size.sedi === 1 ? 'e' : 'i'}, ${fmt(size.future)} future, ${fmt(size.past)} past; seeded in ${seeded} s) | ${name} | ` +
            `${median(times.get(name)!).toFixed(1)} | ${fmt(buffers)} | ${fmt(prenotazioniRead(plan))} |`,
        );
      }
    } finally {
      await bench.close();
    }
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // A measure of the two sizes side by side, with its baseline: no target of its own (the scale bench has them).
  return true;
}
