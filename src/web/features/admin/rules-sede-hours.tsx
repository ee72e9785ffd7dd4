import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SaveIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { sedeHoursSchema, type DayHours, type SedeHours } from '../../../shared/schemas/rules';
import { LoadFailed } from '../../components/load-failed';
import { SectionCard } from '../../components/section-card';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { t as tNow, useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { adminListQueryOptions } from '../../lib/query-client';
import { DayRow } from './rules-day-row';
import { rulesToForm, WEEKDAYS, type DayForm, type RulesFormErrors } from './rules-model';

/*
 * A sede's own opening hours (issue 47), in /admin → Regole, shown only when the install has
 * several open sedi: choose a sede, then its week or "the service's hours".
 */

const sedeHoursKey = (sedeId: number) => ['admin', 'sedi', sedeId, 'orari'] as const;

function useSedeHours(sedeId: number) {
  return useQuery<SedeHours>({
    queryKey: sedeHoursKey(sedeId),
    queryFn: () => apiRequest<SedeHours>('GET', `/api/admin/sedi/${sedeId}/orari`),
    ...adminListQueryOptions,
  });
}

function useSaveSedeHours(sedeId: number, nome: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SedeHours) => apiRequest<SedeHours>('PUT', `/api/admin/sedi/${sedeId}/orari`, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(sedeHoursKey(sedeId), saved);
      // The booking form's rules of that sede are out of date.
      await queryClient.invalidateQueries({ queryKey: ['/api/regole'] });
      toast({ title: tNow('rulesSede.saved'), description: tNow('rulesSede.savedHint', { nome }) });
    },
    onError: (error: unknown) => toast({ variant: 'destructive', title: tNow('rulesSede.saveFailed'), description: serverMessage(error) ?? undefined }),
  });
}

/** The week as the day rows edit it: the sede's own, else the service's (a start for its own). */
const weekForm = (week: DayHours[]): DayForm[] =>
  rulesToForm({
    orari: week,
    durataMassimaMinuti: null,
    prenotazioniSettimanaliMax: null,
    preavvisoMinimoMinuti: null,
    orizzonteGiorni: null,
    attesaPagamentoMinuti: null,
    mancatoRitiroMinuti: null,
    offertaMinuti: 15,
    sospensione: null,
  }).orari;

/** The form of one sede's week: its own hours on or off, the seven days, saved together. */
function SedeWeek({ sedeId, nome, stored, install }: { sedeId: number; nome: string; stored: DayHours[] | null; install: DayHours[] }) {
  const t = useT();
  const ids = useId();
  const fieldId = (key: string) => `${ids}-${key.replaceAll('.', '-')}`.replaceAll(':', '');
  const [own, setOwn] = useState(stored !== null);
  const [days, setDays] = useState<DayForm[]>(() => weekForm(stored ?? install));
  const [errors, setErrors] = useState<RulesFormErrors>({});
  const save = useSaveSedeHours(sedeId, nome);
  const ownId = fieldId('own');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const orari = own ? days.map((d) => (d.chiuso ? null : { apertura: d.apertura, chiusura: d.chiusura })) : null;
    const parsed = sedeHoursSchema.safeParse({ orari });
    if (!parsed.success) {
      const found: RulesFormErrors = {};
      for (const issue of parsed.error.issues) found[issue.path.map(String).join('.')] ??= issue.message;
      setErrors(found);
      const first = Object.keys(found)[0];
      if (first) document.getElementById(fieldId(first))?.focus();
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  return (
    <form noValidate onSubmit={submit} aria-busy={save.isPending} className="grid gap-3">
      <div className="flex items-center gap-3">
        <Switch id={ownId} checked={own} onChange={(e) => setOwn(e.target.checked)} />
        <Label htmlFor={ownId}>{t('rulesSede.own')}</Label>
      </div>
      {own ? (
        <ul className="grid gap-3">
          {days.map((day, i) => (
            <DayRow
              key={WEEKDAYS[i]}
              index={i}
              day={day}
              errors={errors}
              fieldId={fieldId}
              onChange={(d) => setDays((current) => current.map((old, j) => (j === i ? d : old)))}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{t('rulesSede.usesInstall')}</p>
      )}
      <Button type="submit" disabled={save.isPending} className="w-full sm:w-auto sm:justify-self-end">
        <ButtonIcon pending={save.isPending} icon={<SaveIcon aria-hidden="true" />} />
        {t('rulesSede.save')}
      </Button>
    </form>
  );
}

function SedeWeekLoader({ sedeId, nome, install }: { sedeId: number; nome: string; install: DayHours[] }) {
  const t = useT();
  const hours = useSedeHours(sedeId);
  if (hours.isPending) return <Spinner label={t('rulesSede.loading')} showLabel className="py-2" />;
  if (hours.isError || !hours.data) {
    return <LoadFailed className="flex flex-wrap items-center gap-3" message={t('rulesSede.loadFailed')} onRetry={() => void hours.refetch()} />;
  }
  // A new form per sede and per stored week: what the server holds is where it starts.
  return <SedeWeek key={`${sedeId}-${JSON.stringify(hours.data.orari)}`} sedeId={sedeId} nome={nome} stored={hours.data.orari} install={install} />;
}

/** `install`: the service's week, the start of a sede's own; the section waits for it. */
export function SedeHoursSection({ install }: { install: DayHours[] | undefined }) {
  const t = useT();
  const sedi = useSedi();
  const selectId = useId();
  const [chosen, setChosen] = useState<number | null>(null);
  if (!sedi.several || !install) return null;
  const sedeId = chosen ?? sedi.open[0]!.id;
  return (
    <SectionCard id="regole-orari-sede" title={t('rulesSede.title')} description={t('rulesSede.description')}>
      <div className="grid gap-1.5 sm:max-w-sm">
        <Label htmlFor={selectId}>{t('rulesSede.sede')}</Label>
        <NativeSelect id={selectId} value={String(sedeId)} onChange={(e) => setChosen(Number(e.target.value))}>
          {sedi.open.map((s) => (
            <option key={s.id} value={s.id}>
              {s.nome}
            </option>
          ))}
        </NativeSelect>
      </div>
      <SedeWeekLoader sedeId={sedeId} nome={sedi.nameOf(sedeId)} install={install} />
    </SectionCard>
  );
}
