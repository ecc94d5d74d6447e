// A dependency that accepts connections and never answers: what a test points an endpoint at to see a
// request time out (a closed port would refuse at once instead).
import { createServer, type Socket } from 'node:net';

export interface BlackHole {
  url: string;
  close(): void;
}

export async function startBlackHole(): Promise<BlackHole> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
