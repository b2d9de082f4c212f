import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export interface SelfSigned {
  cert: string;
  key: string;
}

/** A fresh self-signed certificate (its own CA) for `name`, made with the openssl CLI. */
export function selfSignedCertificate(name: string): SelfSigned {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-cert-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`],
      { cwd: dir, stdio: 'ignore' },
    );
    return { cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'), key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const SSL_REQUEST_CODE = 80877103;

/**
 * A TLS-only front for the shared PostgreSQL (which is not reconfigured): it answers PostgreSQL's SSLRequest
 * with 'S', does the TLS handshake with the given certificate, then pipes the decrypted stream to the real
 * server. A client that does not ask for TLS is disconnected.
 */
export async function pgTlsFront(certificate: SelfSigned, upstream: { host: string; port: number }): Promise<{ port: number; handshakes: () => number; close(): Promise<void> }> {
  let handshakes = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let head: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (head.length < 8) return;
      socket.off('data', onData);
      if (head.readInt32BE(0) !== 8 || head.readInt32BE(4) !== SSL_REQUEST_CODE) {
        socket.destroy();
        return;
      }
      socket.write('S');
      const secure = new tls.TLSSocket(socket, { isServer: true, key: certificate.key, cert: certificate.cert });
      secure.on('error', () => socket.destroy());
      secure.once('secure', () => {
        handshakes++;
        const backend = net.connect(upstream.port, upstream.host);
        sockets.add(backend);
        backend.on('error', () => secure.destroy());
        secure.pipe(backend).pipe(secure);
      });
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    handshakes: () => handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
