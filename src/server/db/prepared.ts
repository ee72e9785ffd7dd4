import type { Query, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import type { Tx } from './transaction.js';

const dialect = new PgDialect();

/** A statement prepared by name on each connection that runs it: see `namedStatement`. */
export interface NamedStatement<Row> {
  readonly name: string;
  /** The SQL text sent at the first run on a connection (tests read it). */
  text(): string;
  run(executor: Db | Tx, values: Record<string, unknown>): Promise<Row[]>;
}

const registry = new Map<string, NamedStatement<unknown>>();

/** Every named statement of the modules loaded so far (the plan-shape test reads their texts). */
export const namedStatements = (): NamedStatement<unknown>[] => [...registry.values()];

/**
 * A hot statement that PostgreSQL plans once per connection instead of at every run (issue 51,
 * decision 059). `query` gives fixed SQL whose varying values are `sql.placeholder(name)` (a
 * function, called at the first run, so that a module may declare its statements before the
 * fragments they use); its text is built once, and each run binds only the values, by name, on the pool or on a
 * transaction's connection. node-postgres parses a named statement once per connection and then
 * sends only Bind/Execute; PostgreSQL reuses the statement's plan (a generic plan after five
 * custom ones, when it costs no more).
 *
 * Why it matters: a booking's statements planned anew each time cost 2–3 ms of planning apiece
 * (prenotazioni has 13 indexes, two of them GiST, and 34 triggers to weigh), more than running
 * them. Only for statements whose text never changes with the values: a list of ids joined
 * into the text would make a new statement under the same name.
 *
 * Drizzle's `.prepare(name)` does this for its query builder; this is the same for raw SQL
 * (a data-modifying WITH cannot be wrapped in a select), through the same session method.
 */
export function namedStatement<Row>(name: string, query: () => SQL): NamedStatement<Row> {
  if (registry.has(name)) throw new Error(`statement name ${name} is taken`);
  let compiled: Query | undefined;
  const compile = () => (compiled ??= dialect.sqlToQuery(query()));
  const statement: NamedStatement<Row> = {
    name,
    text: () => compile().sql,
    async run(executor, values) {
      const prepared = executor._.session.prepareQuery<{ execute: { rows: Row[] }; all: unknown; values: unknown }>(compile(), undefined, name, false);
      const result = await prepared.execute(values);
      return result.rows;
    },
  };
  registry.set(name, statement as NamedStatement<unknown>);
  return statement;
}
