import { Link } from 'wouter';
import { LanguageSection } from './language-section';
import { SedeSection } from './sede-section';
import {
  BellOffIcon,
  BellRingIcon,
  CalendarPlusIcon,
  CopyIcon,
  KeyRoundIcon,
  LinkIcon,
  RefreshCwIcon,
  SaveIcon,
  Trash2Icon,
} from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ProfileDto } from '../../../shared/schemas/profile';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { SectionCard } from '../../components/section-card';
import { SubpageHeader } from '../../components/subpage-header';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../components/ui/use-toast';
import { t as appT, loadDomains, Trans, useT } from '../../lib/i18n';
import { useCurrentUser } from '../../lib/session';
import { serverMessage } from '../../lib/api-errors';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import {
  PASSWORD_FIELDS,
  validateNames,
  validatePasswordChange,
  type NameErrors,
  type PasswordErrors,
  type PasswordValues,
} from './profile-model';
import { PrivacySection } from './privacy-section';
import { CollegeSection } from './college-section';
import { browserPushSupport, currentSubscription, PushRefused, subscribeToPush, unsubscribeFromPush } from './push';
import {
  useChangeOwnPassword,
  useCreateCalendarLink,
  useProfile,
  useRevokeCalendarLink,
  useUpdateProfile,
} from './queries';
import { LoadFailed } from '../../components/load-failed';
import { type MessageKey } from '../../../shared/i18n';

function ProfileHeader() {
  const t = useT();
  return <SubpageHeader title={t('profile.title')} description={t('profile.description')} width="max-w-3xl" />;
}

function NamesSection({ profile }: { profile: ProfileDto }) {
  const [values, setValues] = useState({ nome: profile.nome, cognome: profile.cognome });
  const [errors, setErrors] = useState<NameErrors>({});
  const t = useT();
  const update = useUpdateProfile(() => ({ title: appT('profile.saved') }), () => appT('profile.saveFailed'));
  const ids = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    const result = validateNames(values, profile);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(`${ids}-${result.errors.nome ? 'nome' : 'cognome'}`)?.focus();
      return;
    }
    setErrors({});
    if (Object.keys(result.changes).length === 0) {
      toast({ title: t('profile.noChanges') });
      return;
    }
    update.mutate(result.changes);
  }

  return (
    <SectionCard id="profilo-dati" title={t('profile.personal')}>
      <form noValidate onSubmit={submit} aria-busy={update.isPending} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {(['nome', 'cognome'] as const).map((field) => (
            <FormField key={field} id={`${ids}-${field}`} label={field === 'nome' ? t('profile.firstName') : t('profile.lastName')} error={errors[field]} required>
              {(control) => (
                <Input
                  {...control}
                  autoComplete={field === 'nome' ? 'given-name' : 'family-name'}
                  value={values[field]}
                  maxLength={100}
                  onChange={(e) => {
                    const value = e.target.value;
                    setValues((v) => ({ ...v, [field]: value }));
                    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
                  }}
                />
              )}
            </FormField>
          ))}
        </div>
        <p className="text-sm text-muted-foreground">
          <Trans id="profile.email" values={{ email: profile.email }} components={{ 0: <span className="break-all text-foreground" /> }} />
        </p>
        <Button type="submit" className="sm:justify-self-start" disabled={update.isPending}>
          <ButtonIcon pending={update.isPending} icon={<SaveIcon aria-hidden="true" />} />
          {t('profile.save')}
        </Button>
      </form>
    </SectionCard>
  );
}

const EMPTY_PASSWORDS: PasswordValues = { passwordAttuale: '', nuovaPassword: '', confermaPassword: '' };
const PASSWORD_LABELS = {
  passwordAttuale: 'profile.currentPassword',
  nuovaPassword: 'profile.newPassword',
  confermaPassword: 'profile.confirmPassword',
} as const satisfies Record<keyof PasswordValues, MessageKey>;

/** An account made by a college login has no password (issue 49): it sets one through the recovery. */
function NoPasswordSection() {
  const t = useT();
  return (
    <SectionCard id="profilo-password" title={t('profile.password')} description={t('profileNoPassword.description')}>
      <Button asChild variant="outline" className="justify-self-start">
        <Link href="/recupera-password">
          <KeyRoundIcon aria-hidden="true" />
          {t('profileNoPassword.set')}
        </Link>
      </Button>
    </SectionCard>
  );
}

function PasswordSection() {
  const t = useT();
  const [values, setValues] = useState<PasswordValues>(EMPTY_PASSWORDS);
  const [errors, setErrors] = useState<PasswordErrors>({});
  const change = useChangeOwnPassword();
  const ids = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    const result = validatePasswordChange(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = PASSWORD_FIELDS.find((f) => result.errors[f]);
      if (first) document.getElementById(`${ids}-${first}`)?.focus();
      return;
    }
    setErrors({});
    change.mutate(result.request, { onSuccess: () => setValues(EMPTY_PASSWORDS) });
  }

  return (
    <SectionCard id="profilo-password" title={t('profile.password')} description={t('profile.passwordDescription')}>
      <form noValidate onSubmit={submit} aria-busy={change.isPending} className="grid gap-4">
        {PASSWORD_FIELDS.map((field) => (
          <FormField key={field} id={`${ids}-${field}`} label={t(PASSWORD_LABELS[field])} error={errors[field]} required>
            {(control) => (
              <PasswordInput
                {...control}
                autoComplete={field === 'passwordAttuale' ? 'current-password' : 'new-password'}
                value={values[field]}
                onChange={(e) => {
                  const value = e.target.value;
                  setValues((v) => ({ ...v, [field]: value }));
                  if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
                }}
              />
            )}
          </FormField>
        ))}
        <Button type="submit" className="sm:justify-self-start" disabled={change.isPending}>
          <ButtonIcon pending={change.isPending} icon={<KeyRoundIcon aria-hidden="true" />} />
          {t('profile.changePassword')}
        </Button>
      </form>
    </SectionCard>
  );
}

function RemindersSection({ profile }: { profile: ProfileDto }) {
  const t = useT();
  const update = useUpdateProfile(
    (p) => ({ title: appT(p.promemoria ? 'profile.remindersOn' : 'profile.remindersOff') }),
    () => appT('profile.preferenceFailed'),
  );
  const checked = update.isPending && update.variables.promemoria !== undefined ? update.variables.promemoria : profile.promemoria;
  return (
    <SectionCard id="profilo-promemoria" title={t('profile.reminders')}>
      <div className="flex items-start gap-3">
        <Switch
          id="promemoria"
          className="mt-0.5"
          checked={checked}
          disabled={update.isPending}
          aria-describedby="promemoria-hint"
          onChange={(e) => update.mutate({ promemoria: e.target.checked })}
        />
        <div className="grid gap-1">
          <label htmlFor="promemoria" className="font-medium">
            {t('profile.reminders')}
          </label>
          <p id="promemoria-hint" className="text-sm text-muted-foreground">
            {t('profile.remindersHint')}
          </p>
        </div>
      </div>
    </SectionCard>
  );
}

function PushSection({ profile }: { profile: ProfileDto }) {
  const t = useT();
  const support = browserPushSupport(profile.push.publicKey);
  const [subscription, setSubscription] = useState<PushSubscription | null | undefined>(undefined);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (support !== 'supported') return;
    let live = true;
    currentSubscription().then(
      (s) => live && setSubscription(s),
      () => live && setSubscription(null),
    );
    return () => {
      live = false;
    };
  }, [support]);

  async function run(task: () => Promise<void>, fallback: () => string) {
    setPending(true);
    try {
      await task();
    } catch (error) {
      const description = error instanceof PushRefused ? error.message : (serverMessage(error) ?? fallback());
      toast({ variant: 'destructive', title: appT('profile.error'), description });
    } finally {
      setPending(false);
    }
  }

  let body: ReactNode;
  if (support === 'unsupported') {
    body = (
      <p className="text-sm text-muted-foreground">
        {t('profile.pushUnsupported')}
      </p>
    );
  } else if (support === 'unavailable') {
    body = <p className="text-sm text-muted-foreground">{t('profile.pushUnavailable')}</p>;
  } else if (support === 'denied') {
    body = (
      <p className="text-sm text-muted-foreground">
        {t('profile.pushDenied')}
      </p>
    );
  } else if (subscription === undefined) {
    body = <Spinner label={t('profile.pushChecking')} />;
  } else if (subscription) {
    body = (
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm">{t('profile.pushActive')}</p>
        <Button
          variant="outline"
          disabled={pending}
          onClick={() =>
            run(async () => {
              await unsubscribeFromPush(subscription);
              setSubscription(null);
              toast({ title: appT('profile.pushOff') });
            }, () => appT('profile.pushOffFailed'))
          }
        >
          <ButtonIcon pending={pending} icon={<BellOffIcon aria-hidden="true" />} />
          {t('profile.turnOff')}
        </Button>
      </div>
    );
  } else {
    const publicKey = profile.push.publicKey ?? '';
    body = (
      <Button
        className="justify-self-start"
        disabled={pending}
        onClick={() =>
          run(async () => {
            setSubscription(await subscribeToPush(publicKey));
            toast({ title: appT('profile.pushOn'), description: appT('profile.pushOnText') });
          }, () => appT('profile.pushOnFailed'))
        }
      >
        <ButtonIcon pending={pending} icon={<BellRingIcon aria-hidden="true" />} />
        {t('profile.turnOn')}
      </Button>
    );
  }

  return (
    <SectionCard id="profilo-notifiche" title={t('profile.notifications')} description={t('profile.notificationsDescription')}>
      {body}
    </SectionCard>
  );
}

function CalendarSection({ profile }: { profile: ProfileDto }) {
  const t = useT();
  const [url, setUrl] = useState<string | null>(null);
  const create = useCreateCalendarLink();
  const revoke = useRevokeCalendarLink();
  const urlRef = useRef<HTMLInputElement>(null);
  const pending = create.isPending || revoke.isPending;

  function makeLink(again: boolean) {
    create.mutate(undefined, {
      onSuccess: (link) => {
        setUrl(link.url);
        toast({ title: appT(again ? 'profile.newLink' : 'profile.linkCreated'), description: again ? appT('profile.oldLinkDead') : undefined });
      },
    });
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: appT('profile.linkCopied') });
    } catch {
      // Without clipboard access (an old browser, no permission): the link is selected, to copy by hand.
      urlRef.current?.focus();
      urlRef.current?.select();
      toast({ title: appT('profile.copyByHand'), description: appT('profile.copyByHandText') });
    }
  }

  const revokeButton = (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" className="text-destructive hover:text-destructive" disabled={pending}>
          <Trash2Icon aria-hidden="true" />
          {t('profile.revoke')}
        </Button>
      }
      title={t('profile.revokeTitle')}
      description={t('profile.revokeText')}
      confirmLabel={t('profile.revoke')}
      onConfirm={() => revoke.mutateAsync().then(() => setUrl(null))}
    />
  );

  let body: ReactNode;
  if (!profile.calendarioAttivo) {
    body = (
      <Button className="justify-self-start" disabled={pending} onClick={() => makeLink(false)}>
        <ButtonIcon pending={create.isPending} icon={<CalendarPlusIcon aria-hidden="true" />} />
        {t('profile.createLink')}
      </Button>
    );
  } else {
    body = (
      <>
        {url ? (
          <>
            <div className="grid gap-2">
              <label htmlFor="calendario-url" className="text-sm font-medium">
                {t('profile.calendarLink')}
              </label>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Input ref={urlRef} id="calendario-url" readOnly value={url} onFocus={(e) => e.target.select()} />
                <Button variant="outline" onClick={() => void copy()}>
                  <CopyIcon aria-hidden="true" />
                  {t('profile.copy')}
                </Button>
              </div>
            </div>
            <div className="grid gap-1 text-sm text-muted-foreground">
              <p>
                <Trans id="profile.google" components={{ 0: <strong className="text-foreground" /> }} />
              </p>
              <p>
                <Trans id="profile.apple" components={{ 0: <strong className="text-foreground" /> }} />
              </p>
              <p>{t('profile.dontShare')}</p>
            </div>
          </>
        ) : (
          <p className="flex items-start gap-2 text-sm">
            <LinkIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {t('profile.linkActive')}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={pending} onClick={() => makeLink(true)}>
            <ButtonIcon pending={create.isPending} icon={<RefreshCwIcon aria-hidden="true" />} />
            {t('profile.regenerate')}
          </Button>
          {revokeButton}
        </div>
      </>
    );
  }

  return (
    <SectionCard
      id="profilo-calendario"
      title={t('profile.calendar')}
      description={t('profile.calendarDescription')}
    >
      {body}
    </SectionCard>
  );
}

/** The admins' second factor (issue 23): its own chunk, fetched only for an admin. */
const TwoFactorSection = lazy(() => import('./two-factor-section').then((m) => ({ default: m.TwoFactorSection })));

/** The passkeys (issue 49): their own chunk, with the account's texts; the WebAuthn library loads when one is added. */
const PasskeySection = lazy(() =>
  Promise.all([import('./passkey-section'), loadDomains('account')]).then(([m]) => ({ default: m.PasskeySection })),
);

function PasskeysSection({ admin }: { admin: boolean }) {
  const t = useT();
  return (
    <SectionCard id="profilo-passkey" title={t('passkeyUi.profileTitle')} description={t('passkeyUi.profileDescription')}>
      <Suspense fallback={<Spinner label={t('profile.loading')} showLabel className="py-4" />}>
        <PasskeySection admin={admin} />
      </Suspense>
    </SectionCard>
  );
}

function AdminSecuritySection() {
  const t = useT();
  return (
    <SectionCard
      id="profilo-due-fattori"
      title={t('profile.twoFactor')}
      description={t('profile.twoFactorDescription')}
    >
      <Suspense fallback={<Spinner label={t('profile.loading')} showLabel className="py-4" />}>
        <TwoFactorSection />
      </Suspense>
    </SectionCard>
  );
}

/** /profilo (decision 022). The route guard guarantees a logged-in user. */
export function ProfilePage() {
  const t = useT();
  const { data: user } = useCurrentUser();
  const profile = useProfile();
  // Only while logging out: the session is gone before the address changes.
  if (!user) return <FullScreenSpinner label={t('app.loading')} />;

  let body: ReactNode;
  if (profile.isPending) {
    body = <Spinner label={t('app.loadingProfile')} showLabel className="py-6" />;
  } else if (profile.isError) {
    body = (
      <LoadFailed className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4" message={serverMessage(profile.error) ?? t('profile.loadFailed')} onRetry={() => void profile.refetch()} />
    );
  } else {
    body = (
      <>
        {user.ruolo === 'admin' ? <AdminSecuritySection /> : null}
        <NamesSection profile={profile.data} />
        {profile.data.password ? <PasswordSection /> : <NoPasswordSection />}
        <PasskeysSection admin={user.ruolo === 'admin'} />
        <CollegeSection />
        <LanguageSection profile={profile.data} />
        <SedeSection profile={profile.data} />
        <RemindersSection profile={profile.data} />
        <PushSection profile={profile.data} />
        <CalendarSection profile={profile.data} />
        <PrivacySection />
      </>
    );
  }

  return (
    <div className="min-h-dvh pb-12">
      <ProfileHeader />
      <main className="mx-auto grid max-w-3xl gap-6 px-4 pt-6 sm:px-6">{body}</main>
    </div>
  );
}
