import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleConnectionsSafely } from './connections.js';

/**
 * Issue 32: the stop closes idle connections, and loses no answer doing so. Two requests
 * pipelined on one connection: the first gets a large answer, still being written when the stop
 * looks for idle connections (a download, or any answer to a slow client); the second (a
 * booking, say) has been read and is still being served.
 */
let server: http.Server | undefined;
const LARGE = 32 * 1024 * 1024;

afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

async function largeAnswerThenABooking(safe: boolean): Promise<{ bytes: number; text: string; secondServed: boolean }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let secondServed = false;
  const client = new net.Socket();
  server = http.createServer((req, res) => {
    if (req.url === '/large') {
      // end() is called at once; the kernel takes a few MB, the rest waits in the socket.
      res.end(Buffer.alloc(LARGE, 'a'));
      return;
    }
    // The second request has been read: the stop looks for idle connections now. Its work
    // ends, and the client starts reading, only after that look (the safe one looks in the
    // check phase).
    process.nextTick(() => {
      server!.closeIdleConnections();
      setImmediate(() =>
        setImmediate(() => {
          release();
          client.resume();
        }),
      );
    });
    void held.then(() => {
      // The work is done (the booking stored); its answer goes out if the connection is open.
      secondServed = true;
      res.end('second');
    });
  });
  if (safe) closeIdleConnectionsSafely(server, 0);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  client.connect(port, '127.0.0.1');
  client.pause();
  let bytes = 0;
  let tail = '';
  client.on('data', (d: Buffer) => {
    bytes += d.length;
    tail = (tail + d.toString('latin1')).slice(-200);
  });
  client.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  client.write('GET /large HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await closed;
  await held;
  return { bytes, text: tail, secondServed };
}

describe('closing idle connections during the stop', () => {
  it('Node’s own check cuts an answer still being written, and a request already read (the cause of issue 32’s lost answers)', async () => {
    const { bytes, text, secondServed } = await largeAnswerThenABooking(false);
    expect(bytes).toBeLessThan(LARGE);
    expect(text).not.toContain('second');
    // Served all the same: the work behind the answer was done, and nobody heard of it.
    expect(secondServed).toBe(true);
  });

  it('the safe check leaves such a connection open: both answers arrive whole', async () => {
    const { bytes, text, secondServed } = await largeAnswerThenABooking(true);
    expect(bytes).toBeGreaterThan(LARGE);
    expect(text.endsWith('second')).toBe(true);
    expect(secondServed).toBe(true);
  });

  it('closes a connection that is quiet, once its grace has passed', async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    closeIdleConnectionsSafely(server, 0);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => {
      const check = () => (received.includes('ok') ? resolve() : setTimeout(check, 5));
      check();
    });
    // The answer is out; the keep-alive connection is idle.
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    server.closeIdleConnections();
    await ended;
    socket.destroy();
  });

  it('leaves a connection whose request head is arriving, and answers that request', async () => {
    let accepted: net.Socket | undefined;
    server = http.createServer((_req, res) => res.end('answered'));
    closeIdleConnectionsSafely(server, 0);
    server.on('connection', (socket: net.Socket) => (accepted = socket));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const client = net.connect(port, '127.0.0.1');
    let received = '';
    client.on('data', (d: Buffer) => (received += d.toString()));
    client.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await until(() => (accepted?.bytesRead ?? 0) > 0);
    server.closeIdleConnections();
    // The check has run (it runs in the check phase, queued before these).
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    expect(accepted!.destroyed).toBe(false);
    client.write('\r\n');
    await until(() => received.includes('answered'));
    client.destroy();
  });
});
