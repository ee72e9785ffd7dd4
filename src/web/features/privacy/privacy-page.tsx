import { ArrowLeftIcon, BikeIcon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '../../../shared/api-types';
import { Trans, useT } from '../../lib/i18n';
import { useStarted } from '../../lib/started';
import { PRIVACY_DATA_ID, PRIVACY_PLACEHOLDERS, type PrivacyInfo } from '../../../shared/privacy';

/** The served page's data block; the placeholders while pre-rendering (no document); null otherwise. */
function initialInfo(): PrivacyInfo | null {
  if (typeof document === 'undefined') return PRIVACY_PLACEHOLDERS;
  const block = document.getElementById(PRIVACY_DATA_ID);
  if (!block?.textContent) return null;
  try {
    const info = JSON.parse(block.textContent) as Partial<PrivacyInfo>;
    return typeof info.titolare === 'string' && typeof info.contatto === 'string' ? { titolare: info.titolare, contatto: info.contatto } : null;
  } catch {
    return null;
  }
}

/** The page opened without the server's data block (the installed app's copy): the same data from GET /api/config. */
function usePrivacyInfo(): PrivacyInfo | null {
  const [info, setInfo] = useState(initialInfo);
  useEffect(() => {
    if (info) return;
    let live = true;
    void fetch('/api/config', { credentials: 'same-origin' })
      .then((res) => (res.ok ? (res.json() as Promise<PublicConfig>) : null))
      .then((config) => {
        if (live && config?.privacy) setInfo(config.privacy);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [info]);
  return info;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * /privacy (issue 23): the privacy notice (GDPR art. 13), public, pre-rendered like /login.
 * BiciElis sets only technical cookies: no consent banner is needed.
 */
export function PrivacyPage() {
  useStarted();
  const t = useT();
  const info = usePrivacyInfo();
  const titolare = info?.titolare ?? t('privacyPage.someController');
  const contatto = info?.contatto ?? t('privacyPage.someContact');
  const strong = <strong />;
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 pt-8 pb-8 leading-relaxed sm:px-6">
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-xl bg-primary text-primary-foreground">
          <BikeIcon className="size-6" aria-hidden="true" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight">{t('privacyPage.title')}</h1>
      </div>
      <p>{t('privacyPage.intro')}</p>
      <Section title={t('privacyPage.controllerTitle')}>
        <p>
          <Trans id="privacyPage.controller" values={{ titolare, contatto }} components={{ 0: strong, 1: strong }} />
        </p>
      </Section>
      <Section title={t('privacyPage.dataTitle')}>
        <ul className="list-disc grid gap-1 pl-6">
          <li>
            <Trans id="privacyPage.dataAccount" components={{ 0: strong }} />
          </li>
          <li>
            <Trans id="privacyPage.dataBookings" components={{ 0: strong }} />
          </li>
          <li>
            <Trans id="privacyPage.dataPayments" components={{ 0: strong }} />
          </li>
          <li>
            <Trans id="privacyPage.dataTechnical" components={{ 0: strong }} />
          </li>
        </ul>
      </Section>
      <Section title={t('privacyPage.legalBasisTitle')}>
        <p>{t('privacyPage.legalBasis')}</p>
      </Section>
      <Section title={t('privacyPage.processorsTitle')}>
        <p>
          <Trans id="privacyPage.processors" components={{ 0: strong, 1: strong }} />
        </p>
      </Section>
      <Section title={t('privacyPage.retentionTitle')}>
        <p>{t('privacyPage.retention')}</p>
      </Section>
      <Section title={t('privacyPage.cookiesTitle')}>
        <p>
          <Trans id="privacyPage.cookies" components={{ 0: strong }} />
        </p>
      </Section>
      <Section title={t('privacyPage.rightsTitle')}>
        <p>
          <Trans id="privacyPage.rights" values={{ contatto }} components={{ 0: strong, 1: strong, 2: strong }} />
        </p>
      </Section>
      <p>
        <a href="/login" className="inline-flex min-h-11 items-center font-medium text-primary underline underline-offset-4">
          <ArrowLeftIcon className="mr-1 size-4" aria-hidden="true" />
          {t('privacyPage.back')}
        </a>
      </p>
    </main>
  );
}
