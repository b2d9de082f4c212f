import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AttackerServer {
  /** `http://127.0.0.1:<port>`: another origin than the app, as an attacker's site would be. */
  url: string;
  /** Every request that reached it (method and path with query), in order. */
  requests: string[];
  /** TCP connections opened to it (a preconnect or a blocked fetch can open one without a request). */
  connections: number;
  close(): Promise<void>;
}

/** A local "attacker" HTTP server that records whatever the browser sends it, and answers an empty 200. */
export async function startAttackerServer(): Promise<AttackerServer> {
  const requests: string[] = [];
  const state = { connections: 0 };
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end('ok');
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
