import { useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, DownloadIcon, FileTextIcon, LockIcon, MailCheckIcon, MailXIcon } from 'lucide-react';
import { useState } from 'react';
import { LinkButton } from '../../components/link-button';
import type { ReportSummary } from '../../../shared/schemas/reports';
import { Badge } from '../../components/ui/badge';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api';
import { t as translate, useLingua, useT } from '../../lib/i18n';
import { useCurrentUser } from '../../lib/session';
import { saveResponseAsFile } from '../../lib/download';
import { formatDateTime, formatFileSize, formatReportDate } from './reports-model';

export const REPORTS_QUERY_KEY = ['/api/reports'] as const;

/** Fetches the PDF and hands it to the browser under the server's file name. */
async function downloadReport(id: number): Promise<void> {
  const res = await fetch(`/api/reports/download/${id}`, { credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}`);
  // The default name of spec §7 when the header gives none.
  await saveResponseAsFile(res, `Report_${id}.pdf`);
}

function ReportRow({ report }: { report: ReportSummary }) {
  const t = useT();
  const lingua = useLingua();
  const [pending, setPending] = useState(false);
  const onDownload = async () => {
    setPending(true);
    try {
      await downloadReport(report.id);
      toast({ title: translate('reportsPage.downloadDone'), description: report.fileName });
    } catch {
      toast({ title: translate('reportsPage.downloadError'), description: translate('reportsPage.downloadErrorText'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  return (
    <li className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <FileTextIcon className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <h2 className="break-all font-semibold">{report.fileName}</h2>
          {report.emailSent ? (
            <Badge variant="success">
              <MailCheckIcon aria-hidden="true" />
              {t('reportsPage.emailSent')}
            </Badge>
          ) : (
            <Badge variant="muted">
              <MailXIcon aria-hidden="true" />
              {t('reportsPage.emailNotSent')}
            </Badge>
          )}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-muted-foreground">{t('reportsPage.reportDate')}</dt>
          <dd>{formatReportDate(report.reportDate, lingua)}</dd>
          <dt className="text-muted-foreground">{t('reportsPage.createdAt')}</dt>
          <dd>{formatDateTime(report.createdAt)}</dd>
          <dt className="text-muted-foreground">{t('reportsPage.size')}</dt>
          <dd>{formatFileSize(report.fileSize, lingua)}</dd>
          {report.emailSentAt && (
            <>
              <dt className="text-muted-foreground">{t('reportsPage.emailSentAt')}</dt>
              <dd>{formatDateTime(report.emailSentAt)}</dd>
            </>
          )}
        </dl>
      </div>
      <Button onClick={() => void onDownload()} disabled={pending} className="w-full sm:w-auto" aria-label={t('reportsPage.downloadLabel', { fileName: report.fileName })}>
        <ButtonIcon pending={pending} icon={<DownloadIcon aria-hidden="true" />} />
        {t('reportsPage.download')}
      </Button>
    </li>
  );
}

function ReportsBody() {
  const t = useT();
  const { data, error, isPending } = useQuery<ReportSummary[]>({ queryKey: REPORTS_QUERY_KEY });
  if (isPending) return <Spinner label={t('reportsPage.loading')} showLabel className="py-8" />;
  if (error instanceof ApiError && error.status === 403) {
    return (
      <div role="alert" className="flex items-start gap-3 rounded-xl border border-orange-200 bg-orange-50 p-4 text-orange-900">
        <LockIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{t('reportsPage.adminsOnly')}</p>
          <p className="text-sm">{t('reportsPage.adminsOnlyText')}</p>
        </div>
      </div>
    );
  }
  if (error) {
    return (
      <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
        {t('reportsPage.loadFailed', { message: error.message })}
      </p>
    );
  }
  if (data.length === 0) {
    return <p className="rounded-xl border bg-card p-6 text-center text-muted-foreground">{t('reportsPage.empty')}</p>;
  }
  return (
    <ul className="grid gap-3" aria-label={t('reportsPage.listLabel')}>
      {data.map((r) => (
        <ReportRow key={r.id} report={r} />
      ))}
    </ul>
  );
}

/** /doc (spec §2 "Reports page"): any logged-in user may open it; the list is for admins. */
export function ReportsPage() {
  const t = useT();
  // Admins come here from /admin and go back there; anyone else to their dashboard.
  const isAdmin = useCurrentUser().data?.ruolo === 'admin';
  return (
    <div className="min-h-dvh bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-4xl items-center px-4 py-2 sm:px-6">
          <LinkButton href={isAdmin ? '/admin' : '/dashboard'} icon={ArrowLeftIcon} variant="ghost" size="sm">
            {isAdmin ? t('reportsPage.backAdmin') : t('reportsPage.backDashboard')}
          </LinkButton>
        </div>
        <div className="mx-auto max-w-4xl px-4 pt-3 pb-5 sm:px-6">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('reportsPage.title')}</h1>
          <p className="mt-1 text-muted-foreground">{t('reportsPage.intro')}</p>
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-6 sm:px-6">
        <ReportsBody />
      </main>
    </div>
  );
}
