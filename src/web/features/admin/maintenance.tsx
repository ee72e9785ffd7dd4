import { ArrowLeftIcon, CalendarClockIcon, CheckIcon, XIcon } from 'lucide-react';
import { useCallback, useState, type FormEvent } from 'react';
import type { AdminBikeDto } from '../../../shared/schemas/admin';
import type { MaintenanceDto, MaintenanceOutcomeDto, MaintenanceRequest } from '../../../shared/schemas/rules';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Badge } from '../../components/ui/badge';
import { Button, ButtonIcon } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { usePublicConfig } from '../../lib/public-config';
import { FALLBACK_TIME_ZONE } from '../../lib/booking-labels';
import { AffectedBookings } from './affected-bookings';
import { TitledDialog } from './form-dialog';
import { useCreateMaintenance, useDeleteMaintenance, useMaintenancePreview, useMaintenances } from './queries';
import { PeriodBounds, PeriodReason } from './period-fields';
import { InlineError } from './rules-parts';
import { defaultMaintenance, formatLocalDateTime, maintenanceSummary, validateMaintenance } from './rules-model';
import { usePeriodForm, type PeriodForm } from './period-form';
import { LoadFailed } from '../../components/load-failed';

type Step = { kind: 'form' } | { kind: 'preview'; request: MaintenanceRequest; outcome: MaintenanceOutcomeDto };

/** What the maintenance will do to the bike's bookings, read out when it comes (its button is gone). */
function MaintenanceOutcome({ ids, outcome }: { ids: string; outcome: MaintenanceOutcomeDto }) {
  const t = useT();
  const focusOnMount = useCallback((el: HTMLElement | null) => el?.focus(), []);
  return (
    <div ref={focusOnMount} tabIndex={-1} className="grid gap-4 focus-visible:outline-none">
      <p className="font-medium">{maintenanceSummary(outcome)}</p>
      {outcome.spostate.length > 0 ? (
        <section aria-labelledby={`${ids}-moved`} className="grid gap-2">
          <h3 id={`${ids}-moved`} className="font-semibold">
            {t('maintenance.movedTitle', { count: outcome.spostate.length })}
          </h3>
          <AffectedBookings bookings={outcome.spostate} label={t('maintenance.movedLabel')} moved />
        </section>
      ) : null}
      {outcome.cancellate.length > 0 ? (
        <section aria-labelledby={`${ids}-cancelled`} className="grid gap-2">
          <h3 id={`${ids}-cancelled`} className="font-semibold">
            {t('maintenance.cancelledTitle', { count: outcome.cancellate.length })}
          </h3>
          <AffectedBookings bookings={outcome.cancellate} label={t('maintenance.cancelledLabel')} />
        </section>
      ) : null}
      {outcome.spostate.length + outcome.cancellate.length > 0 ? (
        <p className="text-sm text-muted-foreground">{t('maintenance.emailNote')}</p>
      ) : null}
    </div>
  );
}

/** The period and the reason; its first field takes the focus when the step comes. */
function MaintenanceForm({ form, onSubmit, busy }: { form: PeriodForm<MaintenanceRequest>; onSubmit: (event: FormEvent) => void; busy: boolean }) {
  const t = useT();
  const { ids } = form;
  const focusFirstField = useCallback((el: HTMLFormElement | null) => el?.querySelector('input')?.focus(), []);
  return (
    <form ref={focusFirstField} id={`${ids}-form`} noValidate onSubmit={onSubmit} aria-busy={busy} className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <PeriodBounds form={form} type="datetime-local" />
      </div>
      <PeriodReason form={form} placeholder={t('maintenance.reasonPlaceholder')} />
    </form>
  );
}

/**
 * `Pianifica manutenzione` for one bike: the period and the reason, then (`Continua`) what it
 * will do to the bike's bookings in it (moved to another free bike, or cancelled and refunded),
 * then `Conferma`.
 */
export function PlanMaintenance({ bike }: { bike: AdminBikeDto }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const form = usePeriodForm<MaintenanceRequest>({ dal: '', al: '', motivo: '' }, validateMaintenance, t('maintenance.planFailed'));
  const { failure, setFailure, ids, checked, reset } = form;
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const preview = useMaintenancePreview();
  const create = useCreateMaintenance();
  const config = usePublicConfig();
  const busy = preview.isPending || create.isPending;

  function refused(error: unknown) {
    form.refused(error);
    setStep({ kind: 'form' });
  }

  function next(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const request = checked();
    if (!request) return;
    preview.mutateAsync({ biciId: bike.id, request }).then((outcome) => setStep({ kind: 'preview', request, outcome }), refused);
  }

  function confirm() {
    if (step.kind !== 'preview' || create.isPending) return;
    setFailure(null);
    create.mutateAsync({ biciId: bike.id, request: step.request }).then(() => setOpen(false), refused);
  }

  return (
    <TitledDialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        if (next) {
          reset(defaultMaintenance(new Date(), config.data?.timeZone ?? FALLBACK_TIME_ZONE));
          setStep({ kind: 'form' });
        }
        setOpen(next);
      }}
      trigger={
        <Button variant="outline" size="sm" aria-label={t('maintenance.planLabel', { numero: bike.numero })}>
          <CalendarClockIcon aria-hidden="true" />
          {t('maintenance.plan')}
        </Button>
      }
      title={t('maintenance.planTitle', { numero: bike.numero })}
      description={
        step.kind === 'form'
          ? t('maintenance.planDescription', { modello: bike.modello })
          : t('maintenance.previewDescription', {
              dal: formatLocalDateTime(step.request.dal),
              al: formatLocalDateTime(step.request.al),
              motivo: step.request.motivo.trim(),
            })
      }
    >
      <InlineError message={failure} />
      {step.kind === 'form' ? (
        <MaintenanceForm form={form} onSubmit={next} busy={busy} />
      ) : (
        <MaintenanceOutcome ids={ids} outcome={step.outcome} />
      )}
      <DialogFooter>
        {step.kind === 'form' ? (
          <>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={busy}>
              {t('maintenance.cancel')}
            </Button>
            <Button type="submit" form={`${ids}-form`} disabled={busy}>
              <ButtonIcon pending={preview.isPending} />
              {t('maintenance.continue')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="outline" onClick={() => setStep({ kind: 'form' })} disabled={busy}>
              <ArrowLeftIcon aria-hidden="true" />
              {t('maintenance.back')}
            </Button>
            <Button onClick={confirm} disabled={busy}>
              <ButtonIcon pending={create.isPending} icon={<CheckIcon aria-hidden="true" />} />
              {t('maintenance.confirm')}
            </Button>
          </>
        )}
      </DialogFooter>
    </TitledDialog>
  );
}

function CancelMaintenance({ maintenance }: { maintenance: MaintenanceDto }) {
  const t = useT();
  const remove = useDeleteMaintenance();
  const dal = formatLocalDateTime(maintenance.dal);
  const al = formatLocalDateTime(maintenance.al);
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={t('maintenance.cancelLabel', { numero: maintenance.biciNumero, dal })}>
          <XIcon aria-hidden="true" />
          {t('maintenance.cancel')}
        </Button>
      }
      title={t('maintenance.cancelTitle', { numero: maintenance.biciNumero })}
      description={t('maintenance.cancelDescription', { dal, al })}
      confirmLabel={t('maintenance.cancelConfirm')}
      cancelLabel={t('maintenance.back')}
      onConfirm={() => remove.mutateAsync(maintenance.id)}
    />
  );
}

/** `Manutenzioni programmate`: the periods in course and to come, each cancellable. */
export function MaintenanceList() {
  const t = useT();
  const list = useMaintenances();
  let body;
  if (list.isPending) body = <Spinner label={t('maintenance.loading')} showLabel className="py-2" />;
  else if (list.isError || !list.data) {
    body = (
      <LoadFailed className="flex flex-wrap items-center gap-3" message={t('maintenance.loadFailed')} onRetry={() => void list.refetch()} />
    );
  } else if (list.data.length === 0) {
    body = (
      <p className="rounded-xl border border-dashed bg-card px-4 py-6 text-center text-muted-foreground">
        {t('maintenance.empty')}
      </p>
    );
  } else {
    body = (
      <ul className="grid gap-2">
        {list.data.map((m) => (
          <li key={m.id} className="flex flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
            <div className="grid min-w-0 gap-1 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="min-w-0 text-base font-semibold wrap-anywhere">{t('maintenance.bike', { numero: m.biciNumero })}</h3>
                {m.inCorso ? <Badge variant="danger">{t('maintenance.inProgress')}</Badge> : <Badge variant="info">{t('maintenance.planned')}</Badge>}
              </div>
              <p className="tabular-nums">
                {t('maintenance.period', { dal: formatLocalDateTime(m.dal), al: formatLocalDateTime(m.al) })}
              </p>
              <p className="break-words text-muted-foreground">{m.motivo}</p>
            </div>
            <CancelMaintenance maintenance={m} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section aria-labelledby="manutenzioni-title" className="grid gap-3">
      <h2 id="manutenzioni-title" className="text-xl font-semibold">
        {t('maintenance.title')}
      </h2>
      {body}
    </section>
  );
}
