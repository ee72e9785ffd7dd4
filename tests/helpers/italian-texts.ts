// The tests read the app's texts in Italian, its default language (issue 36): the web app's
// translator (web/lib/i18n.ts, which the shared schemas' messages follow in the browser,
// shared/i18n/current.ts) gets every domain of the catalogue, in Italian, as a page would.
import { loadEveryLingua, renderingIn } from '../../src/web/lib/i18n';

await loadEveryLingua();
renderingIn('it');
