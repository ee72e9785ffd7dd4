import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { redactAuditEntries, type AuditRedaction } from '../audit/index.js';
import { replaceRulesEditor } from '../rules/index.js';

/*
 * The audit log (behaviour.md §8) keeps admin changes with their before/after, which may
 * hold a person's email, name or resident code (an admin edited them, deleted one of their
 * bookings, closed a day they had booked). When the person deletes their account, every
 * entry about them keeps who acted, what and when, but the person's values become
 * ANONYMOUS_MARKER (decision 029).
 */

export const ANONYMOUS_MARKER = '[dato rimosso]';

/** Keys under which an entry about a user holds that user's identity. */
const PERSONAL_KEYS = new Set(['nome', 'cognome', 'email', 'sigla', 'siglaResidente', 'utente', 'userName', 'userSurname', 'userEmail']);

export interface Person {
  id: number;
  email: string;
  nome: string;
  cognome: string;
  sigla: string | null;
}

interface AuditRow extends Record<string, unknown> {
  id: number;
  actor_id: number | null;
  actor_email: string | null;
  entity: string;
  entity_id: string | null;
  soggetto: string | null;
  /** A booking entry whose subject names the person: their booking (ids, not a name alone). */
  names_person?: boolean;
  before: unknown;
  after: unknown;
}

const norm = (v: string) => v.trim().toLowerCase();

/** The person's values: the current ones, and any older ones the entries about them recorded. */
function collectTerms(person: Person, ownEntries: AuditRow[]): { emails: Set<string>; siglas: Set<string>; values: Set<string>; names: Set<string> } {
  const emails = new Set([norm(person.email)]);
  const siglas = new Set(person.sigla ? [person.sigla.trim().toUpperCase()] : []);
  const values = new Set([norm(person.nome), norm(person.cognome), norm(`${person.nome} ${person.cognome}`)]);
  // Full names, as an entry's subject writes them (`Bici 07 per Maria Rossi`).
  const names = new Set([norm(`${person.nome} ${person.cognome}`)]);
  for (const entry of ownEntries) {
    for (const side of [entry.before, entry.after]) {
      if (!side || typeof side !== 'object') continue;
      const o = side as Record<string, unknown>;
      if (typeof o.email === 'string') emails.add(norm(o.email));
      for (const key of ['sigla', 'siglaResidente']) if (typeof o[key] === 'string') siglas.add((o[key] as string).trim().toUpperCase());
      if (typeof o.nome === 'string') values.add(norm(o.nome));
      if (typeof o.cognome === 'string') values.add(norm(o.cognome));
      if (typeof o.nome === 'string' && typeof o.cognome === 'string') {
        values.add(norm(`${o.nome} ${o.cognome}`));
        names.add(norm(`${o.nome} ${o.cognome}`));
      }
    }
  }
  for (const e of emails) values.add(e);
  for (const s of siglas) values.add(norm(s));
  for (const v of [...values]) if (v.length < 2) values.delete(v);
  for (const n of [...names]) if (n.length < 2) names.delete(n);
  return { emails, siglas, values, names };
}

/**
 * An entry's subject without the person: the whole subject when the entry is about them; in an
 * entry on one of their bookings (`Bici 07 per Maria Rossi`), each of their full names.
 */
function redactSubject(subject: string | null, names: Set<string>, about: boolean, theirBooking: boolean): string | null {
  if (subject === null) return null;
  if (about) return ANONYMOUS_MARKER;
  if (!theirBooking) return subject;
  let out = subject;
  // Longest first: `Maria Rossi Bianchi` before `Maria Rossi`.
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    for (let at = out.toLowerCase().indexOf(name); at >= 0; at = out.toLowerCase().indexOf(name, at + ANONYMOUS_MARKER.length)) {
      out = out.slice(0, at) + ANONYMOUS_MARKER + out.slice(at + name.length);
    }
  }
  return out;
}

/** `value` with every personal string replaced; `about` = the entry is about the person. */
function redact(value: unknown, terms: { emails: Set<string>; values: Set<string> }, about: boolean, key?: string): unknown {
  if (typeof value === 'string') {
    const v = norm(value);
    if (about && key !== undefined && PERSONAL_KEYS.has(key) && value !== '') return ANONYMOUS_MARKER;
    if (terms.values.has(v) || [...terms.emails].some((e) => v.includes(e))) return ANONYMOUS_MARKER;
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, terms, about));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    // A booking row in an entry (an admin view, a closure's list) is about the person when it names them.
    const rowAbout =
      about ||
      [o.email, o.userEmail].some((e) => typeof e === 'string' && terms.emails.has(norm(e)));
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, redact(v, terms, rowAbout, k)]));
  }
  return value;
}

/**
 * Anonymises, in the caller's transaction, the audit entries about `person` and the admin
 * entries they made (as actor). Returns how many entries changed.
 */
export async function redactAuditOfPerson(tx: Tx, person: Person): Promise<number> {
  const own = (
    await tx.execute<AuditRow>(sql`
      select id, actor_id, actor_email, entity, entity_id, soggetto, before, after from audit_log
       where entity = 'user' and entity_id = ${String(person.id)}`)
  ).rows;
  const terms = collectTerms(person, own);
  // Lists go as one JSON parameter (a JS array would be spread into a parenthesised list).
  const textArray = (values: string[]) => sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
  const emailList = textArray([...terms.emails]);
  const siglaList = textArray([...terms.siglas].map((s) => `"${s}"`));
  const nameList = textArray([...terms.names]);
  // An entry on one of the person's bookings whose subject names them. Its booking is known by
  // ids, never by a name alone (a namesake's booking keeps its subject): the person's id in the
  // entry (a deleted booking's row, a desk booking's input), or the booking now anonymous
  // (anonymiseEverywhere ran first, in this transaction).
  const theirBooking = sql`(entity = 'booking'
          and exists (select 1 from unnest(${nameList}) n where position(n in lower(coalesce(soggetto, ''))) > 0)
          and (before->>'userId' = ${String(person.id)} or after->>'userId' = ${String(person.id)}
               or exists (select 1 from prenotazioni p where p.id::text = audit_log.entity_id and p.user_id is null)))`;
  const text = sql`lower(coalesce(before::text, '') || ' ' || coalesce(after::text, ''))`;
  const candidates = (
    await tx.execute<AuditRow>(sql`
      select id, actor_id, actor_email, entity, entity_id, soggetto, before, after, ${theirBooking} as names_person from audit_log
       where (entity = 'user' and entity_id = ${String(person.id)})
          or actor_id = ${person.id}
          or lower(coalesce(actor_email, '')) = any(${emailList})
          or exists (select 1 from unnest(${emailList}) e where position(e in ${text}) > 0)
          or exists (select 1 from unnest(${siglaList}) s where position(lower(s) in ${text}) > 0)
          or ${theirBooking}
       order by id
       for update`)
  ).rows;
  const changes: AuditRedaction[] = [];
  for (const entry of candidates) {
    const about = entry.entity === 'user' && entry.entity_id === String(person.id);
    const before = redact(entry.before, terms, about);
    const after = redact(entry.after, terms, about);
    const actorIsPerson = entry.actor_id === person.id || (entry.actor_email !== null && terms.emails.has(norm(entry.actor_email)));
    const actorEmail = actorIsPerson ? ANONYMOUS_MARKER : entry.actor_email;
    const soggetto = redactSubject(entry.soggetto, terms.names, about, entry.names_person === true);
    if (
      JSON.stringify(before) === JSON.stringify(entry.before) &&
      JSON.stringify(after) === JSON.stringify(entry.after) &&
      actorEmail === entry.actor_email &&
      soggetto === entry.soggetto
    ) {
      continue;
    }
    changes.push({ id: entry.id, before, after, actorEmail, soggetto });
  }
  // The entries were locked above in id order; they are rewritten in that order, by their owner.
  await redactAuditEntries(tx, changes);
  // Who saved the rules last is shown by the rules screen: an email too.
  await replaceRulesEditor(tx, [...terms.emails], ANONYMOUS_MARKER);
  return changes.length;
}

/** Every value of the person worth searching for elsewhere (the outbox, the scans). */
export function personTerms(person: Person): string[] {
  return [person.email, `${person.nome} ${person.cognome}`, ...(person.sigla ? [person.sigla] : [])];
}
