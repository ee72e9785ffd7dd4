import { sql } from 'drizzle-orm';
import { DAMAGE_CATEGORY_LABELS } from '../../../shared/damage.js';
import { tFor } from '../../../shared/i18n/all.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import type { Config } from '../../config.js';
import { notifyUser, type NotifyDeps, type UserNotice } from '../notifications/index.js';
import { bikeAtSede, sediNames } from '../sedi/index.js';
import { ticketSummary } from './service.js';

/** What the notices need: the notifications' and the app's address. */
export interface TicketNoticeDeps extends NotifyDeps {
  config: Pick<Config, 'publicUrl'>;
}

/** The people a new ticket is told to: the sede's `Officina`, else every active admin. */
async function recipients(deps: TicketNoticeDeps, sedeId: number): Promise<number[]> {
  const { rows } = await deps.db.execute<{ id: number }>(sql`
    select u.id from users u
     where u.attiva and exists (select 1 from incarichi c where c.user_id = u.id and c.sede_id = ${sedeId} and c.ruolo = 'officina')
     order by u.id`);
  if (rows.length > 0) return rows.map((r) => r.id);
  const admins = await deps.db.execute<{ id: number }>(sql`select id from users where ruolo = 'admin' and attiva order by id`);
  return admins.rows.map((r) => r.id);
}

/**
 * After the commit of a new ticket (issue 48): the sede's `Officina`, or every admin when it has
 * none, told by email and push, each in their language; the sede named only when the install
 * has several. Never throws (a lost notice is logged; the ticket stands, on /officina anyway).
 */
export async function tellTicketOpened(deps: TicketNoticeDeps, ticketId: number): Promise<void> {
  try {
    const t = await ticketSummary(deps.db, ticketId);
    if (!t) return;
    const bici = bikeAtSede(await sediNames(deps.db), t.biciNumero, t.sedeId);
    const url = `${deps.config.publicUrl}/officina/${t.id}`;
    const make = (lingua: Lingua): UserNotice => {
      const tr = tFor(lingua);
      const categoria = tr(DAMAGE_CATEGORY_LABELS[t.categoria]);
      const persona = t.segnalatoDa?.nome || tr('interventiNotices.someone');
      return {
        subject: tr('interventiNotices.newSubject', { bici }),
        text: tr('interventiNotices.newText', { persona, bici, categoria, descrizione: t.descrizione, url }),
        push: { title: tr('interventiNotices.newSubject', { bici }), body: tr('interventiNotices.newPush', { bici, categoria }), url: `/officina/${t.id}` },
      };
    };
    for (const userId of await recipients(deps, t.sedeId)) await notifyUser(deps, userId, make);
  } catch (err) {
    deps.log.error({ err, ticketId }, 'new ticket notice not sent');
  }
}

/**
 * After the commit of a ticket made `riparata`: its reporter told, in their language
 * (`La bici n. 03 è stata riparata. Grazie per la segnalazione`). Never throws.
 */
export async function tellRepaired(deps: TicketNoticeDeps, ticketId: number): Promise<void> {
  try {
    const t = await ticketSummary(deps.db, ticketId);
    if (!t?.segnalatoDa) return;
    const bici = bikeAtSede(await sediNames(deps.db), t.biciNumero, t.sedeId);
    await notifyUser(deps, t.segnalatoDa.id, (lingua) => {
      const tr = tFor(lingua);
      const text = tr('interventiNotices.repairedText', { bici });
      return { subject: tr('interventiNotices.repairedSubject', { bici }), text, push: { title: tr('interventiNotices.repairedSubject', { bici }), body: text, url: '/dashboard' } };
    });
  } catch (err) {
    deps.log.error({ err, ticketId }, 'repaired notice not sent');
  }
}
