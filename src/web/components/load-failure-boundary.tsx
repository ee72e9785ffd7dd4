import { Component, type ReactNode } from 'react';
import { Button } from './ui/button';

interface Props {
  children: ReactNode;
  /** What did not load: the whole screen, or one section of it. */
  scope: 'screen' | 'section';
}

/**
 * What a person sees instead of a blank page when a part of the app cannot be shown: most
 * often its chunk did not arrive (no connection, or a new version deployed meanwhile whose
 * files replaced the old ones). A render error is caught here, said in Italian, and a reload
 * offered; the rest of the page stays as it was.
 */
export class LoadFailureBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const screen = this.props.scope === 'screen';
    return (
      <div role="alert" className={screen ? 'mx-auto grid max-w-md gap-3 px-4 py-16 text-center' : 'grid gap-3 rounded-xl border bg-card p-6'}>
        <p className="font-medium">{screen ? 'Non è stato possibile aprire questa pagina.' : 'Non è stato possibile caricare questa sezione.'}</p>
        <p className="text-sm text-muted-foreground">Controlla la connessione e ricarica la pagina.</p>
        <Button className={screen ? 'mx-auto' : 'justify-self-start'} onClick={() => window.location.reload()}>
          Ricarica la pagina
        </Button>
      </div>
    );
  }
}
