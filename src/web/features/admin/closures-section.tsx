import { CalendarXIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ClosureDto, ClosureOutcomeDto, ClosureRequest } from '../../../shared/schemas/rules';
import { ConfirmDeleteDialog, DeleteButton } from '../../components/confirm-delete-dialog';
import { Button, ButtonIcon } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { AffectedBookings } from './affected-bookings';
import { TitledDialog } from './form-dialog';
import { useClosurePreview, useClosures, useCreateClosure, useDeleteClosure } from './queries';
import { closurePeriod, closurePreviewText, closureRange, validateClosure } from './rules-model';
import { usePeriodForm } from './period-form';
import { PeriodBounds, PeriodReason } from './period-fields';
import { InlineError } from './rules-parts';
import { SectionCard } from '../../components/section-card';
import { LoadFailed } from '../../components/load-failed';
import { NativeSelect } from '../../components/ui/native-select';
import { Label } from '../../components/ui/label';
import { useSedi } from '../../lib/sedi';
import { useSediFor } from '../../lib/staff-view';

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function DeleteClosure({ closure }: { closure: ClosureDto }) {
  const t = useT();
  const remove = useDeleteClosure();
  const range = closureRange(closure);
  return (
    <ConfirmDeleteDialog
      trigger={<DeleteButton className="self-start sm:self-auto" aria-label={t('closuresSection.deleteLabel', { range })} />}
      title={t('closuresSection.deleteTitle')}
      description={t('closuresSection.deleteDescription', { period: capitalized(closurePeriod(closure, t)), motivo: closure.motivo })}
      onConfirm={() => remove.mutateAsync(closure.id)}
    />
  );
}

function ClosureList() {
  const t = useT();
  const closures = useClosures();
  const sedi = useSedi();
  if (closures.isPending) return <Spinner label={t('closuresSection.loading')} showLabel className="py-2" />;
  if (closures.isError || !closures.data) {
    return (
      <LoadFailed className="flex flex-wrap items-center gap-3" message={t('closuresSection.loadFailed')} onRetry={() => void closures.refetch()} />
    );
  }
  if (closures.data.length === 0) {
    return <p className="rounded-lg border border-dashed px-3 py-4 text-center text-sm text-muted-foreground">{t('closuresSection.empty')}</p>;
  }
  return (
    <ul aria-label={t('closuresSection.listLabel')} className="grid gap-2">
      {closures.data.map((c) => (
        <li key={c.id} className="flex flex-col gap-2 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="grid min-w-0 gap-0.5">
            <p className="font-medium tabular-nums">{closureRange(c)}</p>
            <p className="text-sm break-words text-muted-foreground">{c.motivo}</p>
            {sedi.several ? (
              <p className="text-sm text-muted-foreground">{c.sedeId === null ? t('rulesSede.everySede') : sedi.nameOf(c.sedeId)}</p>
            ) : null}
          </div>
          <DeleteClosure closure={c} />
        </li>
      ))}
    </ul>
  );
}

const EMPTY: ClosureRequest = { dal: '', al: '', motivo: '' };

/**
 * `Aggiungi chiusura` asks the server first which bookings the closure would cancel: none,
 * and it is added at once; some, and a dialog says how many and whose before confirming.
 */
function AddClosure() {
  const t = useT();
  const form = usePeriodForm(EMPTY, validateClosure, t('closuresSection.addFailed'));
  const { failure, ids, refused, checked, reset } = form;
  // A staff member closes their own sedi only, never every sede (issue 48).
  const sedi = useSediFor('chiusure');
  // The sede closed (issue 47): '' for every sede.
  const [scope, setScope] = useState(sedi.scoped && sedi.several ? String(sedi.open[0]?.id ?? '') : '');
  const [pending, setPending] = useState<{ request: ClosureRequest; outcome: ClosureOutcomeDto } | null>(null);
  const preview = useClosurePreview();
  const create = useCreateClosure();
  const busy = preview.isPending || create.isPending;

  function add(request: ClosureRequest) {
    return create.mutateAsync(request).then(
      () => {
        reset();
        setPending(null);
      },
      (error: unknown) => {
        setPending(null);
        refused(error);
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checkedRequest = checked();
    if (!checkedRequest) return;
    const request: ClosureRequest = { ...checkedRequest, sedeId: scope === '' ? null : Number(scope) };
    preview.mutateAsync(request).then((outcome) => {
      if (outcome.cancellate.length === 0) void add(request);
      else setPending({ request, outcome });
    }, refused);
  }

  const n = pending?.outcome.cancellate.length ?? 0;
  const paid = pending?.outcome.cancellate.filter((b) => b.pagata).length ?? 0;

  return (
    <>
      <form noValidate onSubmit={submit} aria-busy={busy} aria-labelledby={`${ids}-title`} className="grid gap-3 border-t pt-4">
        <h3 id={`${ids}-title`} className="font-semibold">
          {t('closuresSection.newTitle')}
        </h3>
        <div className="grid gap-3 sm:grid-cols-[10rem_10rem_1fr]">
          <PeriodBounds form={form} type="date" />
          <PeriodReason form={form} placeholder={t('closuresSection.reasonPlaceholder')} />
        </div>
        {sedi.several ? (
          <div className="grid gap-1.5 sm:max-w-sm">
            <Label htmlFor={`${ids}-sede`}>{t('rulesSede.closureScope')}</Label>
            <NativeSelect id={`${ids}-sede`} value={scope} onChange={(e) => setScope(e.target.value)}>
              {sedi.scoped ? null : <option value="">{t('rulesSede.everySede')}</option>}
              {sedi.open.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.nome}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        <p className="text-sm text-muted-foreground">
          {t('closuresSection.newHint')}
        </p>
        <InlineError message={failure} />
        <Button type="submit" disabled={busy} className="w-full sm:w-auto sm:justify-self-end">
          <ButtonIcon pending={busy} icon={<CalendarXIcon aria-hidden="true" />} />
          {t('closuresSection.add')}
        </Button>
      </form>

      <TitledDialog
        open={pending !== null}
        onOpenChange={(open) => !open && !create.isPending && setPending(null)}
        title={t('closuresSection.confirmTitle')}
        description={pending ? closurePreviewText(pending.request, n, paid, t) : null}
      >
        {pending ? <AffectedBookings bookings={pending.outcome.cancellate} label={t('closuresSection.toCancel')} /> : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => setPending(null)} disabled={create.isPending}>
            {t('closuresSection.cancel')}
          </Button>
          <Button variant="destructive" onClick={() => pending && void add(pending.request)} disabled={create.isPending}>
            <ButtonIcon pending={create.isPending} />
            {t('closuresSection.confirm')}
          </Button>
        </DialogFooter>
      </TitledDialog>
    </>
  );
}

/** The closures: date ranges with a reason when nothing can be booked (issue 20). */
export function ClosuresSection() {
  const t = useT();
  return (
    <SectionCard id="regole-chiusure" title={t('closuresSection.title')} description={t('closuresSection.description')}>
      <ClosureList />
      <AddClosure />
    </SectionCard>
  );
}
