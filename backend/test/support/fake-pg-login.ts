import net from 'node:net';

/**
 * The local PostgreSQL trusts every local login, so a wrong password cannot be shown with it. This speaks just
 * enough of the protocol to ask for a cleartext password and refuse it the way PostgreSQL does (SQLSTATE 28P01).
 */
export async function pgRefusingServer(): Promise<{ port: number; received: string[]; connections: () => number; close(): Promise<void> }> {
  const received: string[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.on('error', () => undefined);
    let buffer: Buffer = Buffer.alloc(0);
    let stage: 'startup' | 'password' = 'startup';
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === 'startup' && buffer.length >= 4 && buffer.length >= buffer.readInt32BE(0)) {
        buffer = buffer.subarray(buffer.readInt32BE(0));
        stage = 'password';
        const auth = Buffer.alloc(9);
        auth.write('R', 0);
        auth.writeInt32BE(8, 1);
        auth.writeInt32BE(3, 5); // AuthenticationCleartextPassword
        socket.write(auth);
      } else if (stage === 'password' && buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        received.push(buffer.subarray(5, 1 + buffer.readInt32BE(1) - 1).toString());
        const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed for user "alice"'];
        const body = Buffer.concat([...fields.map((f) => Buffer.from(`${f}\0`)), Buffer.from([0])]);
        const header = Buffer.alloc(5);
        header.write('E', 0);
        header.writeInt32BE(body.length + 4, 1);
        socket.end(Buffer.concat([header, body]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

