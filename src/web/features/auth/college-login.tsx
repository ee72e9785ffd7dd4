import type { ComponentType } from 'react';
import type { PublicConfig } from '../../../shared/api-types';
import type { OidcRefusal } from '../../../shared/schemas/oidc';
import type { MessageKey } from '../../../shared/i18n';
import { buttonVariants } from '../../components/ui/button';
import { apiRequest } from '../../lib/api';
import { returnPathAfterLogin } from '../../lib/guards';
import { loadDomains, useT } from '../../lib/i18n';

/*
 * /login's college account (issue 49), a chunk of its own loaded after hydration (the login's
 * JavaScript budget): `Accedi con l'account del collegio` (or the configured label) when GET
 * /api/config says it is configured, a plain link to the provider (a full navigation); and the
 * refusal the callback sent back with `/login?accesso=<codice>`, said in the page's language.
 */

/** The refusals of GET /api/auth/oidc/callback (`/login?accesso=<codice>`), each with its sentence. */
export const COLLEGE_REFUSALS = {
  'non-verificata': 'collegeLogin.unverified',
  disattivato: 'collegeLogin.disabled',
  scaduto: 'collegeLogin.expired',
  errore: 'collegeLogin.failed',
} as const satisfies Record<OidcRefusal, MessageKey>;

type Refusal = OidcRefusal;

/** The refusal named by an address's query (`?accesso=`), if it is one we know. */
export function refusalIn(search: string): Refusal | null {
  const code = new URLSearchParams(search).get('accesso');
  return code !== null && Object.hasOwn(COLLEGE_REFUSALS, code) ? (code as Refusal) : null;
}

/** Where the provider's login starts: back to the bike's page the login was shown in place of, if it is one. */
export function collegeLoginHref(path: string): string {
  const back = returnPathAfterLogin(path);
  return back ? `/api/auth/oidc/login?ritorno=${encodeURIComponent(back)}` : '/api/auth/oidc/login';
}

interface Shown {
  /** null: not configured; the label (null: the catalogue's) otherwise. */
  access: PublicConfig['accessoCollegio'];
  refusal: Refusal | null;
}

function CollegeLogin({ access, refusal }: Shown) {
  const t = useT();
  return (
    <div className="mt-4 grid gap-4">
      {refusal ? (
        <div role="alert" className="grid gap-1 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
          <p className="font-medium text-destructive">{t('collegeLogin.refusedTitle')}</p>
          <p>{t(COLLEGE_REFUSALS[refusal])}</p>
        </div>
      ) : null}
      {access ? (
        <>
          <p className="flex items-center gap-3 text-sm text-muted-foreground before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
            {t('collegeLogin.or')}
          </p>
          <a href={collegeLoginHref(window.location.pathname)} className={buttonVariants({ variant: 'outline', className: 'w-full whitespace-normal text-center' })}>
            {access.etichetta ?? t('collegeLogin.label')}
          </a>
        </>
      ) : null}
    </div>
  );
}

/** Reads what to show and fills the slot with it, or leaves it empty (not configured, no refusal). */
export async function fillSlot(fill: (shown: () => ComponentType) => void): Promise<void> {
  const refusal = refusalIn(window.location.search);
  const config = await apiRequest<PublicConfig>('GET', '/api/config').catch(() => null);
  const access = config?.accessoCollegio ?? null;
  if (!access && !refusal) return;
  await loadDomains('account').catch(() => undefined);
  fill(() =>
    function ShownCollegeLogin() {
      return <CollegeLogin access={access} refusal={refusal} />;
    },
  );
}
