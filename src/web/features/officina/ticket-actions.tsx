import { Ban, CircleCheckIcon, HandIcon } from 'lucide-react';
import { useId } from 'react';
import type { SessionUser } from '../../../shared/api-types';
import type { TicketDto } from '../../../shared/schemas/interventi';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { Switch } from '../../components/ui/switch';
import { useT } from '../../lib/i18n';
import { useChangeTicket } from './queries';

const BIG = 'min-h-14 w-full text-base';

/**
 * What the workshop does with an open ticket (issue 48), big targets for gloved hands: `Prendo io`
 * (assigned to me, `In lavorazione`), the assignee, `Non utilizzabile`, and the closings, each
 * asked for twice.
 */
export function TicketActions({ ticket, user }: { ticket: TicketDto; user: SessionUser }) {
  const t = useT();
  const change = useChangeTicket(ticket.id);
  const assigneeId = useId();
  const switchId = useId();
  const mine = ticket.assegnatario?.id === user.id && ticket.stato === 'in_lavorazione';
  const takePending = change.isPending && change.variables?.stato === 'in_lavorazione';
  return (
    <section aria-labelledby="ticket-azioni" className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id="ticket-azioni" className="text-lg font-semibold">
        {t('tickets.actions')}
      </h2>
      {mine ? null : (
        <Button size="lg" className={BIG} disabled={change.isPending} onClick={() => change.mutate({ assegnatarioId: user.id, stato: 'in_lavorazione' })}>
          <ButtonIcon pending={takePending} icon={<HandIcon aria-hidden="true" />} />
          {t('tickets.take')}
        </Button>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <ConfirmDeleteDialog
          trigger={
            <Button size="lg" variant="outline" className={`${BIG} border-green-600 text-green-800`} disabled={change.isPending}>
              <CircleCheckIcon aria-hidden="true" />
              {t('tickets.repaired')}
            </Button>
          }
          title={t('tickets.repairedTitle', { numero: ticket.biciNumero })}
          description={t('tickets.repairedText')}
          confirmLabel={t('tickets.repaired')}
          confirmVariant="default"
          cancelLabel={t('tickets.back')}
          onConfirm={() => change.mutateAsync({ stato: 'riparata' })}
        />
        <ConfirmDeleteDialog
          trigger={
            <Button size="lg" variant="outline" className={`${BIG} text-destructive`} disabled={change.isPending}>
              <Ban aria-hidden="true" />
              {t('tickets.notRepairable')}
            </Button>
          }
          title={t('tickets.notRepairableTitle', { numero: ticket.biciNumero })}
          description={t('tickets.notRepairableText')}
          confirmLabel={t('tickets.notRepairable')}
          cancelLabel={t('tickets.back')}
          onConfirm={() => change.mutateAsync({ stato: 'non_riparabile' })}
        />
      </div>
      <div className="flex min-h-14 items-center justify-between gap-4 rounded-lg border px-4 py-2">
        <Label htmlFor={switchId} className="grid gap-1 text-base">
          {t('tickets.unusable')}
          <span className="text-sm font-normal text-muted-foreground">{t('tickets.unusableHint')}</span>
        </Label>
        <Switch
          id={switchId}
          checked={ticket.nonUtilizzabile}
          disabled={change.isPending}
          onChange={(event) => change.mutate({ nonUtilizzabile: event.target.checked })}
        />
      </div>
      {ticket.assegnabili.length > 0 ? (
        <div className="grid gap-2">
          <Label htmlFor={assigneeId}>{t('tickets.assignee')}</Label>
          <NativeSelect
            id={assigneeId}
            className="[&_select]:h-14 [&_select]:text-base"
            value={ticket.assegnatario ? String(ticket.assegnatario.id) : ''}
            disabled={change.isPending}
            onChange={(event) => change.mutate({ assegnatarioId: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">{t('tickets.nobody')}</option>
            {ticket.assegnabili.map((person) => (
              <option key={person.id} value={person.id}>
                {person.nome}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
    </section>
  );
}
