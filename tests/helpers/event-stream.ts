import http from 'node:http';

/** A server-sent events stream read over a real socket: its events' data, as they come. */
export interface EventStreamReader<T> {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: T[];
  /** Resolves with the first event (already received or to come) that `match` accepts; rejects after `timeoutMs`. */
  next(match: (event: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` (GET) and parses its unnamed events' `data:` lines as JSON, one event per blank-line-separated block. */
export function readEventStream<T>(url: string): Promise<EventStreamReader<T>> {
  return new Promise((resolve, reject) => {
    // No keep-alive: the socket ends with the stream (a server's close does not wait for it).
    const request = http.get(url, { agent: false }, (res) => {
      const events: T[] = [];
      const waiters = new Set<{ match: (event: T) => boolean; resolve: (event: T) => void }>();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          // Named events (the heartbeat's `ping`) are not the data this reader collects.
          if (data === '' || block.split('\n').some((line) => line.startsWith('event:'))) continue;
          const event = JSON.parse(data) as T;
          events.push(event);
          for (const waiter of waiters) {
            if (waiter.match(event)) {
              waiters.delete(waiter);
              waiter.resolve(event);
            }
          }
        }
      });
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        ended,
        next(match, timeoutMs = 5_000) {
          const found = events.find(match);
          if (found) return Promise.resolve(found);
          return new Promise<T>((done, fail) => {
            const waiter = {
              match,
              resolve: (event: T) => {
                clearTimeout(timer);
                done(event);
              },
            };
            const timer = setTimeout(() => {
              waiters.delete(waiter);
              fail(new Error(`no matching event within ${timeoutMs} ms (${events.length} received)`));
            }, timeoutMs);
            waiters.add(waiter);
          });
        },
        close() {
          request.destroy();
        },
      });
    });
    request.on('error', reject);
  });
}
