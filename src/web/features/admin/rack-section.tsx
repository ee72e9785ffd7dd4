import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CopyIcon, MonitorIcon, PlusIcon, XIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { RackLinkCreated, RackLinkStatus } from '../../../shared/schemas/rack';
import type { SedeDto } from '../../../shared/schemas/sedi';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { LoadFailed } from '../../components/load-failed';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import type { PlainKey } from './admin-model';
import { apiRequest } from '../../lib/api';
import { t as tNow, useT } from '../../lib/i18n';
import { serverMessage } from '../../lib/api-errors';
import { formatDateTime } from './admin-model';
import { useTimeZone } from '../../lib/public-config';
import { useSediFor } from '../../lib/staff-view';
import { NativeSelect } from './admin-table';

const RACK_KEY = ['admin', 'rastrelliera'] as const;
const failure = (fallback: PlainKey) => (error: unknown) =>
  toast({ variant: 'destructive', title: tNow('rackSection.error'), description: serverMessage(error) ?? tNow(fallback) });

/**
 * `Schermo della rastrelliera` in /admin → Biciclette (issue 34, decision 044): the link for a
 * tablet at the rack. One link is live at a time: a new one (confirmed when one exists) ends
 * the old; `Revoca` ends it. The link is shown once, when made, with a copy button. With several
 * sedi (issue 47), a `Sede` choice: each sede has its own link, showing only its bikes.
 */
export function RackSection() {
  const t = useT();
  const timeZone = useTimeZone();
  // A staff member's own sedi only (issue 48).
  const sedi = useSediFor('rastrelliera');
  const [chosen, setChosen] = useState<number | null>(null);
  // One sede: no choice, and the requests as before sedi (the server's first sede).
  const sedeId = sedi.several ? (chosen ?? sedi.open[0]?.id ?? null) : null;
  const { status, create, revoke, url, setUrl } = useRackLink(sedeId);
  const linkId = useId();

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: tNow('rackSection.linkCopied') });
    } catch {
      toast({ variant: 'destructive', title: tNow('rackSection.error'), description: tNow('rackSection.copyFailed') });
    }
  }

  let body;
  if (status.isPending) {
    body = <Spinner label={t('rackSection.loading')} showLabel className="py-4" />;
  } else if (status.isError) {
    body = (
      <LoadFailed
        className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4"
        message={t('rackSection.loadFailed')}
        onRetry={() => void status.refetch()}
      />
    );
  } else {
    const { attivo, creatoIl } = status.data;
    const newButton = (
      <Button size="sm" disabled={create.isPending} onClick={attivo ? undefined : () => create.mutate()}>
        <ButtonIcon pending={create.isPending} icon={<PlusIcon aria-hidden="true" />} />
        {attivo ? t('rackSection.newLink') : t('rackSection.createLink')}
      </Button>
    );
    body = (
      <div className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm">
        <p className="text-sm">
          {attivo && creatoIl
            ? t('rackSection.activeSince', { at: formatDateTime(creatoIl, timeZone) })
            : t('rackSection.noLink')}
        </p>
        {url ? (
          <div className="grid gap-2">
            <Label htmlFor={linkId}>{t('rackSection.linkLabel')}</Label>
            <div className="flex flex-wrap gap-2">
              <Input id={linkId} readOnly value={url} className="min-w-0 flex-1 font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
              <Button variant="outline" size="sm" onClick={() => void copy()}>
                <CopyIcon aria-hidden="true" />
                {t('rackSection.copy')}
              </Button>
            </div>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {attivo ? (
            <ConfirmDeleteDialog
              trigger={newButton}
              title={t('rackSection.replaceTitle')}
              description={t('rackSection.replaceDescription')}
              confirmLabel={t('rackSection.createNew')}
              confirmVariant="default"
              onConfirm={() => create.mutateAsync()}
            />
          ) : (
            newButton
          )}
          {attivo ? (
            <ConfirmDeleteDialog
              trigger={
                <Button variant="outline" size="sm" className="text-destructive hover:text-destructive">
                  <XIcon aria-hidden="true" />
                  {t('rackSection.revoke')}
                </Button>
              }
              title={t('rackSection.revokeTitle')}
              description={t('rackSection.revokeDescription')}
              confirmLabel={t('rackSection.revoke')}
              onConfirm={() => revoke.mutateAsync()}
            />
          ) : null}
        </div>
      </div>
    );
  }
  return (
    <section aria-labelledby="rastrelliera-title" className="grid gap-3">
      <h2 id="rastrelliera-title" className="flex items-center gap-2 text-xl font-semibold">
        <MonitorIcon className="size-5 text-muted-foreground" aria-hidden="true" />
        {t('rackSection.title')}
      </h2>
      {sedi.several ? (
        <SedePicker
          sedi={sedi.open}
          value={sedeId!}
          onChange={(id) => {
            setChosen(id);
            setUrl(null);
          }}
        />
      ) : null}
      {body}
    </section>
  );
}

/** The sede whose link is shown and made (only when the install has several). */
function SedePicker({ sedi, value, onChange }: { sedi: readonly Pick<SedeDto, 'id' | 'nome'>[]; value: number; onChange: (id: number) => void }) {
  const t = useT();
  const id = useId();
  return (
    <div className="grid max-w-xs gap-2">
      <Label htmlFor={id}>{t('sediBoards.sede')}</Label>
      <NativeSelect id={id} value={String(value)} onChange={(e) => onChange(Number(e.target.value))}>
        {sedi.map((s) => (
          <option key={s.id} value={s.id}>
            {s.nome}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** A sede's link (null: the server's first sede, as before sedi): its state, made and revoked; the new link's address. */
function useRackLink(sedeId: number | null) {
  const queryClient = useQueryClient();
  const query = sedeId === null ? '' : `?sedeId=${sedeId}`;
  const status = useQuery({
    queryKey: sedeId === null ? RACK_KEY : [...RACK_KEY, sedeId],
    queryFn: () => apiRequest<RackLinkStatus>('GET', `/api/admin/rastrelliera${query}`),
  });
  const [url, setUrl] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => apiRequest<RackLinkCreated>('POST', `/api/admin/rastrelliera${query}`),
    onSuccess: async (made) => {
      setUrl(made.url);
      await queryClient.invalidateQueries({ queryKey: RACK_KEY });
      toast({ title: tNow('rackSection.linkCreated'), description: tNow('rackSection.linkCreatedHint') });
    },
    onError: failure('rackSection.createFailed'),
  });
  const revoke = useMutation({
    mutationFn: () => apiRequest('DELETE', `/api/admin/rastrelliera${query}`),
    onSuccess: async () => {
      setUrl(null);
      await queryClient.invalidateQueries({ queryKey: RACK_KEY });
      toast({ title: tNow('rackSection.linkRevoked'), description: tNow('rackSection.linkRevokedHint') });
    },
    onError: failure('rackSection.revokeFailed'),
  });
  return { status, create, revoke, url, setUrl };
}
