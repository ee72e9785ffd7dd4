import type { PublicConfig, SessionUser } from './api-types.js';
import type { AdminSummary } from './schemas/admin.js';
import type { BikeDto, BookingDto } from './schemas/booking.js';
import type { PublicRulesDto } from './schemas/rules.js';
import type { WaitDto } from './schemas/waitlist.js';

/**
 * What the server renders `/dashboard` and `/admin` with for a logged-in user (issue 22,
 * decision 027): the answers the screen would otherwise fetch, read by the server's own
 * services, exactly as the API sends them (JSON: instants as ISO strings).
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
      /** GET /api/admin/summary: the cards at the top of /admin (the tabs below load in the browser). */
      summary: AdminSummary;
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

/** The value of `data-prerendered` on `#root` for a page rendered on the server. */
export const SERVER_RENDERED = 'server';
