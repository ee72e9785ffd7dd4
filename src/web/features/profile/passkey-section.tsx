import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FingerprintIcon, KeyRoundIcon, Trash2Icon } from 'lucide-react';
import type { PasskeyDto, PasskeyListDto } from '../../../shared/schemas/passkeys';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { LoadFailed } from '../../components/load-failed';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { t as appT, useLingua, useT, type Lingua, type Translate } from '../../lib/i18n';
import { useTimeZone } from '../../lib/public-config';
import { refreshSession } from '../../lib/session';
import { alreadyRegistered, ceremonyCancelled, registerPasskey } from '../../lib/webauthn';
import { passkeyDay } from './passkey-model';

/** GET /api/passkeys (the default query function GETs the key). */
const LIST_KEY = ['/api/passkeys'] as const;

const failure = (fallback: () => string) => (error: unknown) =>
  toast({ variant: 'destructive', title: appT('passkeyUi.error'), description: serverMessage(error) ?? fallback() });

function addFailure(error: unknown): void {
  if (ceremonyCancelled(error)) toast({ title: appT('passkeyUi.addCancelled') });
  else if (alreadyRegistered(error)) failure(() => appT('passkeyUi.alreadyHere'))(null);
  else failure(() => appT('passkeyUi.addFailed'))(error);
}

function PasskeyItem({ passkey, t, timeZone, lingua, onRemove }: {
  passkey: PasskeyDto;
  t: Translate;
  timeZone: string;
  lingua: Lingua;
  onRemove: (passkey: PasskeyDto) => Promise<unknown>;
}) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <p className="flex items-center gap-2 font-medium break-words">
          <FingerprintIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
          {passkey.nome}
          {passkey.sincronizzata ? <span className="rounded-full bg-muted px-2 text-xs text-muted-foreground">{t('passkeyUi.synced')}</span> : null}
        </p>
        <p className="text-sm text-muted-foreground">{t('passkeyUi.created', { data: passkeyDay(passkey.createdAt, timeZone, lingua) })}</p>
        <p className="text-sm text-muted-foreground">
          {passkey.ultimoUsoAt ? t('passkeyUi.lastUsed', { data: passkeyDay(passkey.ultimoUsoAt, timeZone, lingua) }) : t('passkeyUi.neverUsed')}
        </p>
      </div>
      <ConfirmDeleteDialog
        trigger={
          <Button variant="outline" size="sm" className="self-start text-destructive hover:text-destructive sm:self-auto" aria-label={t('passkeyUi.removeLabel', { nome: passkey.nome })}>
            <Trash2Icon aria-hidden="true" />
            {t('passkeyUi.remove')}
          </Button>
        }
        title={t('passkeyUi.removeTitle')}
        description={t('passkeyUi.removeText', { nome: passkey.nome })}
        confirmLabel={t('passkeyUi.remove')}
        onConfirm={() => onRemove(passkey)}
      />
    </li>
  );
}

/** The admins' `Usa una passkey come secondo fattore` (PUT /api/passkeys/secondo-fattore). */
function SecondFactorSwitch({ list }: { list: PasskeyListDto }) {
  const t = useT();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (attivo: boolean) => apiRequest<PasskeyListDto>('PUT', '/api/passkeys/secondo-fattore', { attivo }),
    onSuccess: async (next) => {
      queryClient.setQueryData(LIST_KEY, next);
      toast({ title: appT(next.secondoFattore ? 'passkeyUi.secondFactorOn' : 'passkeyUi.secondFactorOff') });
      // Whether the admin pages open (ADMIN_2FA_REQUIRED) is the session's to say.
      await refreshSession();
    },
    onError: failure(() => appT('passkeyUi.secondFactorSaveFailed')),
  });
  const checked = save.isPending ? save.variables : list.secondoFattore;
  return (
    <div className="flex items-start gap-3 border-t pt-4">
      <Switch
        id="passkey-secondo-fattore"
        className="mt-0.5"
        checked={checked}
        disabled={save.isPending || (list.passkeys.length === 0 && !list.secondoFattore)}
        aria-describedby="passkey-secondo-fattore-hint"
        onChange={(e) => save.mutate(e.target.checked)}
      />
      <div className="grid gap-1">
        <label htmlFor="passkey-secondo-fattore" className="font-medium">
          {t('passkeyUi.secondFactorSwitch')}
        </label>
        <p id="passkey-secondo-fattore-hint" className="text-sm text-muted-foreground">
          {t('passkeyUi.secondFactorSwitchHint')}
        </p>
      </div>
    </div>
  );
}

/**
 * The profile's `Passkey` (issue 49), in a chunk of its own with the account's texts: the
 * person's passkeys (device, created, last use), `Aggiungi una passkey` (the browser's dialog,
 * the library loaded then), removal after a confirmation, and for an admin the switch that
 * makes a passkey their second factor.
 */
export function PasskeySection({ admin }: { admin: boolean }) {
  const t = useT();
  const lingua = useLingua();
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const list = useQuery<PasskeyListDto>({ queryKey: LIST_KEY });
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;
  const refresh = () => queryClient.invalidateQueries({ queryKey: LIST_KEY });

  const add = useMutation({
    mutationFn: () => registerPasskey<PasskeyDto>(),
    onSuccess: async (passkey) => {
      toast({ title: appT('passkeyUi.added'), description: appT('passkeyUi.addedText', { nome: passkey.nome }) });
      await refresh();
    },
    onError: addFailure,
  });
  const remove = (passkey: PasskeyDto) =>
    apiRequest('DELETE', `/api/passkeys/${passkey.id}`).then(
      async () => {
        toast({ title: appT('passkeyUi.removed') });
        await refresh();
        // The last one turns the passkey second factor off: the session says so.
        if (admin) await refreshSession();
      },
      failure(() => appT('passkeyUi.removeFailed')),
    );

  if (list.isPending) return <Spinner label={t('passkeyUi.loading')} showLabel className="py-4" />;
  if (list.isError) {
    return (
      <LoadFailed className="flex flex-col items-start gap-3" message={serverMessage(list.error) ?? t('passkeyUi.loadFailed')} onRetry={() => void list.refetch()} />
    );
  }

  return (
    <div className="grid gap-4">
      {list.data.passkeys.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('passkeyUi.empty')}</p>
      ) : (
        <ul aria-label={t('passkeyUi.listLabel')} className="grid gap-3">
          {list.data.passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} t={t} timeZone={timeZone} lingua={lingua} onRemove={remove} />
          ))}
        </ul>
      )}
      {supported ? (
        <Button className="justify-self-start" disabled={add.isPending} onClick={() => add.mutate()}>
          <ButtonIcon pending={add.isPending} icon={<KeyRoundIcon aria-hidden="true" />} />
          {t('passkeyUi.add')}
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">{t('passkeyUi.unsupported')}</p>
      )}
      {admin ? <SecondFactorSwitch list={list.data} /> : null}
    </div>
  );
}
