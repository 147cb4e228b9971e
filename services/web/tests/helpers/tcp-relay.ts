import { connect, createServer, type Socket } from 'node:net';

/*
 * Run by other-host.ts inside a network namespace: `node tcp-relay.ts <listen host> <listen
 * port> <target host> <target port>`. It pipes every connection to the target, prints
 * "listening" once it accepts them, and exits when its parent closes its stdin (so a test that
 * dies leaves no relay behind).
 */

const [listenHost, listenPort, targetHost, targetPort] = process.argv.slice(2);
if (!listenHost || !listenPort || !targetHost || !targetPort) {
  process.stderr.write(
    'usage: tcp-relay.ts <listen host> <listen port> <target host> <target port>\n',
  );
  process.exit(2);
}

const open = new Set<Socket>();

const server = createServer((client) => {
  const upstream = connect(Number(targetPort), targetHost);
  for (const socket of [client, upstream]) {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  }
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
});

server.on('error', (error) => {
  process.stderr.write(`tcp-relay: ${error.message}\n`);
  process.exit(1);
});
server.listen(Number(listenPort), listenHost, () => process.stdout.write('listening\n'));

process.stdin.resume();
process.stdin.on('close', () => {
  for (const socket of open) socket.destroy();
  server.close(() => process.exit(0));
});
