import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection must have been without a request before the stop closes it: a client
 * that has just had an answer on a keep-alive connection (one sent before the drain began)
 * sends its next request within a round trip, and that request is answered (with
 * `Connection: close`) instead of cut on the wire. A connection quiet for longer is a client
 * that has nothing to ask; closing it costs the stop at most this long.
 */
export const IDLE_GRACE_MS = 500;

interface ConnectionState {
  /** Requests read and not yet answered. */
  inFlight: number;
  /** The last sign of life. */
  quietSince: number;
  /** Bytes read by then. */
  bytesSeen: number;
}
const kConnection = Symbol('bicielis.connection');
type AnswerOnConnection = ServerResponse & { [kConnection]?: ConnectionState };

/** An answer handed to the kernel (or cut): its connection has one request fewer in flight. */
function answerClosed(this: AnswerOnConnection) {
  const state = this[kConnection];
  if (!state) return;
  state.inFlight -= 1;
  state.quietSince = performance.now();
  state.bytesSeen = this.req.socket.bytesRead;
}

/**
 * A graceful stop that loses no answer (issue 32). Node's own `closeIdleConnections()`, which
 * `server.close()` calls, destroys every connection whose current answer is `finished`, that is
 * whose `end()` has been called even though the answer is not yet handed to the kernel, and
 * even when the client's NEXT request on that keep-alive connection has already been read and
 * is being served (Node queues its answer behind the finished one). It destroys the socket: the
 * rest of the answer is lost, and the next request's work (a booking stored) is done with its
 * answer going nowhere: the client sees its connection reset (connections.test.ts shows both).
 *
 * Here a connection counts as idle only when no request read on it is still unanswered (from
 * the `request` event to the answer's `close`, which comes once the answer is handed to the
 * kernel) and it has been quiet for `IDLE_GRACE_MS`: no answer given, no byte read. The check
 * runs in the event loop's check phase (`setImmediate`), after the poll phase has read and
 * parsed whatever the clients sent before it: a request already in the socket's buffer is
 * served, not cut. What remains cut is a request sent in the last instant on a connection quiet
 * for the whole grace, never read, so never stored: the race every HTTP/1.1 keep-alive client
 * knows (RFC 9112 §9.3.1), and browsers send such a request again.
 *
 * `server.closeIdleConnections` is replaced on this server, so that `server.close()` (through
 * `app.close()`) and main.ts's reaper both use this safe check.
 */
export function closeIdleConnectionsSafely(server: Server, graceMs = IDLE_GRACE_MS): void {
  const connections = new Map<Socket, ConnectionState>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inFlight: 0, quietSince: performance.now(), bytesSeen: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  // Emitted synchronously as the request's head is parsed (before Fastify's handler is called).
  // No `checkContinue` listener: with one, Node would no longer answer `100 Continue` itself.
  // One listener function for every answer, its connection's state kept on the answer: no
  // closure and no `once` wrapper per request (issue 33: this ran on every request).
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = connections.get(req.socket as Socket);
    if (!state) return;
    state.inFlight += 1;
    (res as AnswerOnConnection)[kConnection] = state;
    res.on('close', answerClosed);
  });

  server.closeIdleConnections = () => {
    setImmediate(() => {
      const now = performance.now();
      for (const [socket, state] of connections) {
        if (state.inFlight > 0) continue;
        // Bytes read since the last look: a request's head is arriving (its request event comes
        // once the head is whole), or the rest of a body Node reads past an early answer. The
        // connection is alive; its quiet starts again.
        if (socket.bytesRead !== state.bytesSeen) {
          state.bytesSeen = socket.bytesRead;
          state.quietSince = now;
          continue;
        }
        // Nothing in flight: destroy() closes with a FIN, as end() would, and no request can be
        // read on it afterwards (after end() one could, and its answer would have nowhere to go).
        if (now - state.quietSince >= graceMs) socket.destroy();
      }
    });
  };
}
