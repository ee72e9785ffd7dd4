/**
 * What a read costs in rows, not in milliseconds (issue 51: flat cost at ten times the data):
 * the statements a service sends, captured as they go, and the rows their plans read
 * (EXPLAIN (ANALYZE, FORMAT JSON)). Rows do not move with the machine's load.
 */
import type pg from 'pg';

/** One node of a JSON plan, as much of it as the counts read. */
export interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The plan's rows: `explain (analyze, format json)`'s one row. */
export type ExplainRows = { 'QUERY PLAN': { Plan: PlanNode }[] }[];

/**
 * Rows each relation's scans produced or threw away (filter, index recheck), over all their
 * loops. With `indexes`, an index's bitmap scan counts too, under the index's name: the
 * entries it walked (its table's name is in it).
 */
export function rowsRead(node: PlanNode, { indexes = false } = {}, out: Record<string, number> = {}): Record<string, number> {
  const name = node['Relation Name'] ?? (indexes ? node['Index Name'] : undefined);
  if (name) {
    const rows = (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
    out[name] = (out[name] ?? 0) + rows * (node['Actual Loops'] ?? 1);
  }
  for (const child of node.Plans ?? []) rowsRead(child, { indexes }, out);
  return out;
}

/** Every node of a plan, the root first. */
export function planNodes(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) planNodes(child, out);
  return out;
}

export interface SentStatement {
  text: string;
  values: unknown[];
}

type Query = (...args: unknown[]) => Promise<unknown>;

/**
 * Runs `read` with the pool's statements captured (text and parameters), as it sends them; the
 * pool is as it was after. `query` is the pool's own, to explain a captured statement with.
 */
export async function captureStatements<T>(pool: pg.Pool, read: () => Promise<T>): Promise<{ result: T; sent: SentStatement[]; query: Query }> {
  const target = pool as unknown as { query: Query };
  const sent: SentStatement[] = [];
  const query = target.query.bind(pool) as Query;
  target.query = (q: unknown, values?: unknown, ...rest: unknown[]) => {
    const s = q as { text?: string; values?: unknown[] };
    if (typeof q === 'object' && s.text) sent.push({ text: s.text, values: s.values ?? (values as unknown[]) ?? [] });
    else if (typeof q === 'string') sent.push({ text: q, values: (values as unknown[]) ?? [] });
    return query(q, values, ...rest);
  };
  try {
    return { result: await read(), sent, query };
  } finally {
    target.query = query;
  }
}
