import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronDownIcon, DownloadIcon, RotateCwIcon, XIcon } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { TOTAL_COUNT_HEADER } from '../../../shared/admin-lists';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, auditActionLabel, auditSubject } from '../../../shared/audit-actions';
import type { AuditActorDto, AuditEntryDto } from '../../../shared/schemas/audit';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiFetch, apiGetPage, apiRequest, type Page } from '../../lib/api';
import { saveResponseAsFile } from '../../lib/download';
import { t as translate, useLingua, useT, type Lingua, type Translate } from '../../lib/i18n';
import { adminListQueryOptions } from '../../lib/query-client';
import { cn } from '../../lib/utils';
import { serverMessage } from '../../lib/api-errors';
import { formatDateTime, listUrl } from './admin-model';
import { SedeBadge, SedeFilter } from './sede-filter';
import { NativeSelect, Pager } from './admin-table';
import { auditChanges } from './audit-model';
import { PAGE_SIZE } from './queries';
import { useTimeZone } from '../../lib/public-config';

/**
 * `/admin → Registro attività` (issue 23): every admin change (who, what, when, before and
 * after), filtered by admin, action and days, paged on the server, exported as CSV. Read-only.
 * Its own chunk, fetched when its tab is pointed at (admin-page.tsx).
 */

interface Filters {
  admin: string;
  azione: string;
  dal: string;
  al: string;
  /** The sede of what was acted on (issue 47); '' every sede. */
  sedeId: string;
}
const NO_FILTERS: Filters = { admin: '', azione: '', dal: '', al: '', sedeId: '' };

/** Under the admin key: any admin change (useRefreshAdmin) reloads the log as well. */
const AUDIT_KEY = ['admin', 'audit'] as const;

function useAuditEntries(filters: Filters, page: number) {
  const url = listUrl('/api/admin/audit', { ...filters, page, pageSize: PAGE_SIZE });
  return useQuery<Page<AuditEntryDto>>({
    queryKey: [...AUDIT_KEY, 'voci', filters, page],
    queryFn: () => apiGetPage<AuditEntryDto>(url, TOTAL_COUNT_HEADER),
    placeholderData: keepPreviousData,
    ...adminListQueryOptions,
  });
}

function useAuditActors() {
  return useQuery<AuditActorDto[]>({
    queryKey: [...AUDIT_KEY, 'admins'],
    queryFn: () => apiRequest<AuditActorDto[]>('GET', '/api/admin/audit/admins'),
    ...adminListQueryOptions,
  });
}

/** The actions in the filter, by their label in the language of `t`. */
const actionOptions = (t: Translate, lingua: Lingua) =>
  AUDIT_ACTIONS.map((value) => ({ value, label: t(AUDIT_ACTION_LABELS[value]) })).sort((a, b) => a.label.localeCompare(b.label, lingua));

function FilterForm({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const id = useId();
  const actors = useAuditActors();
  const set = (key: keyof Filters) => (event: { target: { value: string } }) => onChange({ ...filters, [key]: event.target.value });
  const t = useT();
  const lingua = useLingua();
  return (
    <form role="search" aria-label={t('auditTab.filters')} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-admin`}>{t('auditTab.admin')}</Label>
        <NativeSelect id={`${id}-admin`} value={filters.admin} onChange={set('admin')}>
          <option value="">{t('auditTab.allAdmins')}</option>
          {(actors.data ?? []).map((a) => (
            <option key={a.id} value={String(a.id)}>
              {a.email}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-azione`}>{t('auditTab.action')}</Label>
        <NativeSelect id={`${id}-azione`} value={filters.azione} onChange={set('azione')}>
          <option value="">{t('auditTab.allActions')}</option>
          {actionOptions(t, lingua).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-dal`}>{t('auditTab.from')}</Label>
        <Input id={`${id}-dal`} type="date" value={filters.dal} max={filters.al || undefined} onChange={set('dal')} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-al`}>{t('auditTab.to')}</Label>
        <Input id={`${id}-al`} type="date" value={filters.al} min={filters.dal || undefined} onChange={set('al')} />
      </div>
      <SedeFilter value={filters.sedeId === '' ? undefined : Number(filters.sedeId)} onChange={(next) => onChange({ ...filters, sedeId: next === undefined ? '' : String(next) })} />
    </form>
  );
}

function Changes({ entry, id }: { entry: AuditEntryDto; id: string }) {
  const t = useT();
  const timeZone = useTimeZone();
  const changes = auditChanges(entry.before, entry.after, timeZone, t);
  return (
    <div id={id} className="mt-3 grid gap-2 border-t pt-3">
      {changes.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('auditTab.noChanges')}</p>
      ) : (
        <table className="w-full table-fixed text-sm">
          <caption className="sr-only">{t('auditTab.changesCaption')}</caption>
          <thead>
            <tr className="text-left text-muted-foreground">
              <th scope="col" className="w-[30%] pb-1 font-medium">
                {t('auditTab.field')}
              </th>
              <th scope="col" className="pb-1 font-medium">
                {t('auditTab.before')}
              </th>
              <th scope="col" className="pb-1 font-medium">
                {t('auditTab.after')}
              </th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.field} className="border-t align-top">
                <th scope="row" className="py-1 pr-2 text-left font-medium [overflow-wrap:anywhere]">
                  {c.label}
                </th>
                <td className="py-1 pr-2 text-muted-foreground [overflow-wrap:anywhere]">{c.before}</td>
                <td className="py-1 [overflow-wrap:anywhere]">
                  <span aria-hidden="true">→ </span>
                  {c.after}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">{t('auditTab.fullData')}</summary>
        <dl className="mt-2 grid gap-2">
          <dt className="font-medium">{t('auditTab.before')}</dt>
          <dd className="rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">{JSON.stringify(entry.before, null, 2)}</dd>
          <dt className="font-medium">{t('auditTab.after')}</dt>
          <dd className="rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">{JSON.stringify(entry.after, null, 2)}</dd>
        </dl>
      </details>
    </div>
  );
}

/** The role a staff member acted in (issue 48: `come Portineria`); nothing for an admin's or the system's entry. */
function ActorRole({ ruolo }: { ruolo: AuditEntryDto['actorRuolo'] }) {
  const t = useT();
  if (ruolo !== 'portineria' && ruolo !== 'officina') return null;
  return (
    <span className="text-muted-foreground" data-actor-ruolo={ruolo}>
      {' '}
      {t('staffIncarichi.actorRole', { ruolo: t(`staffIncarichi.${ruolo}`) })}
    </span>
  );
}

function AuditItem({ entry }: { entry: AuditEntryDto }) {
  const timeZone = useTimeZone();
  const [open, setOpen] = useState(false);
  const id = useId();
  const t = useT();
  const label = auditActionLabel(entry.action, t);
  // As the rest of /admin names things (`Bici 07`, a person's name); the kind and id for the
  // rules, a closure, an import, and old entries whose thing is gone.
  const subject = entry.soggetto ?? auditSubject(entry.entity, entry.entityId, t);
  return (
    <li className="rounded-xl border bg-card p-3 shadow-sm" aria-labelledby={`${id}-titolo`}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-0.5">
          <h3 id={`${id}-titolo`} className="font-semibold">
            {label}
          </h3>
          <p className="text-sm [overflow-wrap:anywhere]">
            {subject}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">{t('auditTab.by')}</span>
            <span className="text-muted-foreground">{entry.actorEmail ?? t('auditTab.actorGone')}</span>
            <ActorRole ruolo={entry.actorRuolo} />
          </p>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground tabular-nums">
            <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, timeZone)}</time>
            <SedeBadge sedeId={entry.sedeId} />
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          aria-expanded={open}
          aria-controls={open ? `${id}-modifiche` : undefined}
          aria-label={t('auditTab.beforeAfterLabel', { label, subject })}
          onClick={() => setOpen((v) => !v)}
        >
          <ChevronDownIcon aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
          {t('auditTab.beforeAfter')}
        </Button>
      </div>
      {open ? <Changes entry={entry} id={`${id}-modifiche`} /> : null}
    </li>
  );
}

async function downloadCsv(filters: Filters) {
  const res = await apiFetch('GET', listUrl('/api/admin/audit.csv', { ...filters }));
  return saveResponseAsFile(res, 'registro_attivita.csv');
}

/** Registro attività tab. */
export function AuditTab() {
  const t = useT();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const entries = useAuditEntries(filters, page);
  const shown = useDeferredValue(entries.data);
  const rows = entries.isError ? [] : (shown?.items ?? []);
  const total = entries.isError ? 0 : (shown?.total ?? 0);
  const filtered = filters.admin !== '' || filters.azione !== '' || filters.dal !== '' || filters.al !== '' || filters.sedeId !== '';
  const loading = entries.isPending || (!entries.isError && shown === undefined);

  function changeFilters(next: Filters) {
    setFilters(next);
    setPage(1);
  }

  async function exportCsv() {
    setExporting(true);
    try {
      const name = await downloadCsv(filters);
      toast({ title: translate('auditTab.downloadDone'), description: name });
    } catch (error) {
      toast({
        title: translate('auditTab.downloadError'),
        description: serverMessage(error) ?? translate('auditTab.downloadErrorText'),
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  }

  let body;
  if (loading) body = <Spinner label={t('auditTab.loading')} showLabel className="py-6" />;
  else if (entries.isError)
    body = (
      <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-destructive/40 bg-card p-4 text-sm">
        <span>{serverMessage(entries.error) ?? t('auditTab.loadFailed')}</span>
        <Button variant="outline" size="sm" onClick={() => void entries.refetch()}>
          <RotateCwIcon aria-hidden="true" />
          {t('auditTab.retry')}
        </Button>
      </div>
    );
  else if (rows.length === 0)
    body = (
      <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground">
        {filtered ? t('auditTab.noneFiltered') : t('auditTab.none')}
      </p>
    );
  else
    body = (
      <ol className="grid gap-2" aria-label={t('auditTab.listLabel')}>
        {rows.map((entry) => (
          <AuditItem key={entry.id} entry={entry} />
        ))}
      </ol>
    );

  return (
    <div className="grid min-w-0 gap-4">
      <p className="text-sm text-muted-foreground">
        {t('auditTab.intro')}
      </p>
      <FilterForm filters={filters} onChange={changeFilters} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm tabular-nums" aria-live="polite">
          {loading || entries.isError ? '' : t('auditTab.count', { total })}
        </p>
        <div className="flex flex-wrap gap-2">
          {filtered ? (
            <Button variant="ghost" size="sm" onClick={() => changeFilters(NO_FILTERS)}>
              <XIcon aria-hidden="true" />
              {t('auditTab.clearFilters')}
            </Button>
          ) : null}
          <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={exporting}>
            <ButtonIcon pending={exporting} icon={<DownloadIcon aria-hidden="true" />} />
            {t('auditTab.downloadCsv')}
          </Button>
        </div>
      </div>
      <section aria-label={t('auditTab.log')} aria-busy={entries.isFetching}>
        {body}
      </section>
      <Pager label={t('auditTab.pages')} page={page} total={total} pageSize={PAGE_SIZE} onPage={setPage} />
    </div>
  );
}
