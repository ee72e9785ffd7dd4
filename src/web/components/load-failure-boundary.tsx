import { Component, type ReactNode } from 'react';
import { useT } from '../lib/i18n';
import { Button } from './ui/button';

interface Props {
  children: ReactNode;
  /** What did not load: the whole screen, or one section of it. */
  scope: 'screen' | 'section';
}

/**
 * What a person sees instead of a blank page when a part of the app cannot be shown: most
 * often its chunk did not arrive (no connection, or a new version deployed meanwhile whose
 * files replaced the old ones). A render error is caught here, said in the app's language, and a reload
 * offered; the rest of the page stays as it was.
 */
export class LoadFailureBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <LoadFailedNotice screen={this.props.scope === 'screen'} />;
  }
}

/** What the boundary shows: a function component, to read the texts in the app's language. */
function LoadFailedNotice({ screen }: { screen: boolean }) {
  const t = useT();
  return (
    <div role="alert" className={screen ? 'mx-auto grid max-w-md gap-3 px-4 py-16 text-center' : 'grid gap-3 rounded-xl border bg-card p-6'}>
      <p className="font-medium">{screen ? t('ui.screenFailed') : t('ui.sectionFailed')}</p>
      <p className="text-sm text-muted-foreground">{t('ui.checkConnection')}</p>
      <Button className={screen ? 'mx-auto' : 'justify-self-start'} onClick={() => window.location.reload()}>
        {t('ui.reload')}
      </Button>
    </div>
  );
}
