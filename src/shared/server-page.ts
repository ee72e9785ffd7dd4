import type { PublicConfig, SessionUser } from './api-types.js';
import type { AdminBookingDto, AdminDamageDto, AdminOverdueDto, AdminSummary } from './schemas/admin.js';
import type { BikePageDto } from './schemas/bike-page.js';
import type { BikeDto, BookingDto } from './schemas/booking.js';
import type { TicketDto, TicketSummaryDto } from './schemas/interventi.js';
import type { PublicRulesDto } from './schemas/rules.js';
import type { AdminWaitlistDto, WaitDto } from './schemas/waitlist.js';

/**
 * What the server renders `/dashboard`, `/admin`, `/bici/{numero}`, `/officina` and
 * `/officina/{id}` with for a logged-in user (issue 22, decisions 027, 068 and 070): the answers
 * the screen would otherwise fetch, read by the server's own services, exactly as the API sends
 * them (JSON: instants as ISO strings).
 */
export type ServerPageData =
  | {
      screen: 'dashboard';
      /** GET /api/prenotazioni/user */
      bookings: BookingDto[];
      /** GET /api/biciclette */
      bikes: BikeDto[];
      /** GET /api/config */
      config: PublicConfig;
      /** GET /api/regole */
      rules: PublicRulesDto;
      /** GET /api/attese */
      waits: WaitDto[];
    }
  | {
      screen: 'admin';
      /** GET /api/admin/summary: the cards at the top of /admin. */
      summary: AdminSummary;
      /** GET /api/config: the college's time zone, in which /admin writes instants. */
      config: PublicConfig;
      /** GET /api/admin/ritardi, /api/admin/attese, /api/admin/danni: the sections under them. */
      overdue: AdminOverdueDto[];
      waitlist: AdminWaitlistDto;
      damages: AdminDamageDto[];
      /** GET /api/interventi?stato=aperti: `Danni da controllare`, the open repair tickets (issue 48). */
      tickets: TicketSummaryDto[];
      /**
       * GET /api/admin/prenotazioni?stato=tutti&page=1&pageSize=50: the first tab's first page,
       * its rows and X-Total-Count. The other tabs load in the browser.
       */
      bookings: { items: AdminBookingDto[]; total: number };
    }
  | {
      screen: 'bike';
      /** The bike's number as the address gives it (`/bici/07`: '07'), the page's query key. */
      numero: string;
      /** GET /api/biciclette/numero/:numero */
      bike: BikePageDto;
      /** GET /api/config: the college's time zone, in which the page writes times. */
      config: PublicConfig;
    }
  | {
      screen: 'officina';
      /** GET /api/interventi?stato=aperti: the open tickets of the user's sedi (an admin: every sede). */
      tickets: TicketSummaryDto[];
      /** GET /api/config: the time zone and the sedi, whose names the cards carry when there are several. */
      config: PublicConfig;
    }
  | {
      screen: 'ticket';
      /** GET /api/interventi/{id} */
      ticket: TicketDto;
      /** GET /api/config */
      config: PublicConfig;
    };

export interface ServerPageInput {
  /** The address as the browser shows it: `pathname` and `search` (with its `?`, or ''). */
  pathname: string;
  search: string;
  /** GET /api/current-user's answer. */
  user: SessionUser;
  /** The server's clock (ms): what the page computes from the time it renders identically in the browser while hydrating. */
  now: number;
  data: ServerPageData;
}

export interface ServerPageOutput {
  /** The app's HTML, the inside of `<div id="root">`. */
  html: string;
  /** The state the browser starts from (`ServerState`), JSON safe inside a `<script>` element. */
  state: string;
}

/** The `<script type="application/json">` holding the state (the browser reads it in main.tsx). */
export const SERVER_STATE_ELEMENT_ID = 'bicielis-state';

/**
 * The `<script type="application/json">` of a pre-rendered page holding the class lists its
 * first screens merged (`ClassLists` of src/web/lib/utils.ts; vite.config.ts writes it, main.tsx
 * reads it): hydrating the page needs no tailwind-merge (decision 048).
 */
export const CLASS_LISTS_ELEMENT_ID = 'bicielis-classi';

/** The value of `data-prerendered` on `#root` for a page rendered on the server. */
export const SERVER_RENDERED = 'server';

/**
 * The id of a page's header (the dashboard's, the subpages' such as /admin): a page the
 * server renders for a user is first painted once its header has been parsed whole
 * (`rel=expect` in vite.config.ts), so that half a header is never painted and then moved.
 */
export const PAGE_HEADER_ID = 'page-header';

/**
 * An empty, hidden element right after the header's bar (brand or back link, and the account
 * buttons): the `rel=expect` of those pages names it, not the header. Once it is in the
 * document the bar before it is parsed whole, whichever moment Chromium takes as "parsed"
 * (the element's start or its end). Naming the header itself still let a busy Chromium paint
 * the account buttons one by one, 3 opens in 100 under load (docs/performance.md).
 */
export const PAGE_BAR_END_ID = 'page-bar-end';
