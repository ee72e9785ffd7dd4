import { useEffect, useState } from 'react';
import type { BikeNow, RackBoard } from '../../../shared/schemas/fleet';
import type { Translate } from '../../../shared/i18n';
import { zonedClock } from '../../../shared/time';
import { FALLBACK_TIME_ZONE } from '../../lib/booking-labels';
import { useT } from '../../lib/i18n';
import { useStarted } from '../../lib/started';

/** How long the page waits before asking again when the stream could not be opened. */
const RETRY_MS = 3_000;
/** The server sends a `ping` every 25 s: a stream silent for longer has lost its network. */
const SILENCE_MS = 40_000;

type Connection =
  /** Opening the stream, nothing shown yet. */
  | 'connecting'
  /** The stream is open: the board is the state now. */
  | 'live'
  /** The network dropped: the last board stays, with the time of that state. */
  | 'offline'
  /** The link is wrong or was revoked (404). */
  | 'invalid';

/** One bike's state as the rack's screen says it, in the language of `t`. */
export function stateText(bike: BikeNow, clock: (iso: string) => string, t: Translate): string {
  switch (bike.stato) {
    case 'libera':
      return bike.liberaFino ? t('rackPage.freeUntil', { time: clock(bike.liberaFino) }) : t('rackPage.free');
    case 'in_uso':
      return bike.inUsoFino ? t('rackPage.inUseUntil', { time: clock(bike.inUsoFino) }) : t('rackPage.inUse');
    case 'in_ritardo':
      return t('rackPage.late');
    case 'prenotata':
      return bike.prenotataDalle ? t('rackPage.bookedFrom', { time: clock(bike.prenotataDalle) }) : t('rackPage.booked');
    case 'manutenzione':
      return t('rackPage.maintenance');
    case 'fuori_servizio':
      return t('rackPage.outOfService');
  }
}

/** High contrast on black: each state a light colour, and a border of the same. */
const STATE_STYLE: Record<BikeNow['stato'], string> = {
  libera: 'text-green-300 border-green-400',
  in_uso: 'text-amber-300 border-amber-400',
  in_ritardo: 'text-red-300 border-red-400',
  prenotata: 'text-sky-300 border-sky-400',
  manutenzione: 'text-neutral-200 border-neutral-400',
  fuori_servizio: 'text-neutral-200 border-neutral-400',
};

/** The service's time zone (GET /api/config); the college's until it answers. */
function useTimeZone(): string {
  const [timeZone, setTimeZone] = useState(FALLBACK_TIME_ZONE);
  useEffect(() => {
    let live = true;
    void fetch('/api/config', { credentials: 'same-origin' })
      .then((res) => (res.ok ? (res.json() as Promise<{ timeZone?: string }>) : null))
      .then((config) => {
        if (live && typeof config?.timeZone === 'string') setTimeZone(config.timeZone);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return timeZone;
}

/**
 * The board: `GET /api/rastrelliera/{token}/eventi`, a stream of server-sent events. The
 * browser reconnects by itself after a drop (EventSource); a stream it cannot open (a 404, or
 * no network at all) is closed, and the page asks the board's JSON whether the link is still
 * valid before trying again.
 */
function useBoard(token: string) {
  const [board, setBoard] = useState<RackBoard | null>(null);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [lostAt, setLostAt] = useState<Date | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    /** When the server was last heard: the time of the state shown, should the network drop. */
    let lastContact = Date.now();
    const contact = () => {
      lastContact = Date.now();
    };
    // The token as the address holds it (base64url: nothing to encode).
    const path = `/api/rastrelliera/${token}`;
    const lost = () => {
      setConnection((c) => (c === 'invalid' ? c : 'offline'));
      setLostAt((at) => at ?? new Date(lastContact));
    };
    const check = async () => {
      try {
        const res = await fetch(path, { cache: 'no-store', credentials: 'omit' });
        if (stopped) return;
        if (res.status === 404) {
          setConnection('invalid');
          return;
        }
        if (res.ok) setBoard((await res.json()) as RackBoard);
      } catch {
        // No network: the last board stays.
      }
      if (!stopped) retry = setTimeout(connect, RETRY_MS);
    };
    const connect = () => {
      source = new EventSource(`${path}/eventi`);
      source.onopen = contact;
      source.addEventListener('ping', contact);
      source.onmessage = (event: MessageEvent<string>) => {
        contact();
        setBoard(JSON.parse(event.data) as RackBoard);
        setConnection('live');
        setLostAt(null);
      };
      source.onerror = () => {
        lost();
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          void check();
        }
      };
    };
    connect();
    // A network gone without a word leaves the stream open and silent: closed, and asked again.
    const watchdog = setInterval(() => {
      if (source?.readyState === EventSource.OPEN && Date.now() - lastContact > SILENCE_MS) {
        source.close();
        lost();
        void check();
      }
    }, 5_000);
    return () => {
      stopped = true;
      clearInterval(watchdog);
      clearTimeout(retry);
      source?.close();
    };
  }, [token]);

  return { board, connection, lostAt };
}

function BikeCard({ bike, clock }: { bike: BikeNow; clock: (iso: string) => string }) {
  const t = useT();
  const next = bike.prossimePrenotazioni;
  return (
    <li className={`flex flex-col gap-2 rounded-2xl border-4 bg-neutral-900 p-5 ${STATE_STYLE[bike.stato]}`}>
      <p className="text-7xl leading-none font-black break-words text-white tabular-nums">
        <span className="sr-only">{t('rackPage.bike')}</span>
        {bike.numero}
      </p>
      <p className="text-5xl leading-tight font-bold">{stateText(bike, clock, t)}</p>
      <p className="text-2xl text-white tabular-nums">
        {next.length === 0
          ? t('rackPage.noOtherBookings')
          : t('rackPage.todaysBookings', { times: next.map((b) => `${clock(b.inizio)}–${clock(b.fine)}`).join(', ') })}
      </p>
    </li>
  );
}

/**
 * `/rastrelliera/{token}` (issue 34, decision 044): the rack's board on a tablet, no login.
 * Every bike with its state now and the times of the day's next bookings, in type read from
 * three metres; live through server-sent events; the last state kept, with its time, when the
 * network drops; `Link non valido` for a wrong or revoked link. No name, email or code.
 */
export function RackPage({ token }: { token: string }) {
  useStarted();
  const t = useT();
  const timeZone = useTimeZone();
  const { board, connection, lostAt } = useBoard(token);
  const clock = (iso: string) => zonedClock(new Date(iso), timeZone);

  const documentTitle = t('rackPage.documentTitle');
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);

  if (connection === 'invalid') {
    return (
      <main className="flex min-h-dvh items-center justify-center bg-black p-8 text-white">
        <h1 className="text-center text-6xl font-bold">{t('rackPage.invalidLink')}</h1>
      </main>
    );
  }

  let status: string;
  if (connection === 'offline') {
    const at = lostAt ? zonedClock(lostAt, timeZone) : null;
    status = board && at ? t('rackPage.lastUpdateOffline', { time: at }) : t('rackPage.reconnecting');
  } else if (board) {
    status = t('rackPage.updatedAt', { time: zonedClock(new Date(board.aggiornatoAlle), timeZone) });
  } else {
    status = t('rackPage.loading');
  }

  return (
    <main className="min-h-dvh bg-black p-6 text-white">
      <header className="mb-6 flex flex-wrap items-baseline justify-between gap-4">
        <h1 className="text-5xl font-bold">
          {t('rackPage.title')}
          {/* The sede, only when the install has several (the server names it only then). */}
          {board?.sede ? <span className="mt-2 block text-3xl font-semibold text-neutral-200">{board.sede.nome}</span> : null}
        </h1>
        <p role="status" className={`text-2xl font-semibold ${connection === 'offline' ? 'text-amber-300' : 'text-neutral-200'}`}>
          {status}
        </p>
      </header>
      {board ? (
        board.bici.length === 0 ? (
          <p className="text-4xl">{t('rackPage.noBikes')}</p>
        ) : (
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(min(22rem,100%),1fr))] gap-5" aria-label={t('rackPage.listLabel')}>
            {board.bici.map((bike) => (
              <BikeCard key={bike.biciId} bike={bike} clock={clock} />
            ))}
          </ul>
        )
      ) : null}
    </main>
  );
}
