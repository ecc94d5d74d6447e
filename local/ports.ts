import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer, Socket } from 'node:net';

/** A port the OS says is free right now (for children that cannot listen on port 0 themselves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });

/** Waits until something accepts connections on the port, or fails after the deadline. */
export async function waitForPort(port: number, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start listening on port ${port} within ${timeoutMs} ms`);
}

/** Stops a loopback service: no new connections, and the open ones (keep-alive) closed now. */
export const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * Refuses a taken port before anything starts (a second, not the half minute of a stack that fails at its
 * last step), naming what holds it when this user may see it.
 */
export function ensurePortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') return reject(error);
      const holder = portHolder(port);
      reject(
        new Error(
          `Port ${port} on ${host} is already in use${holder ? ` by ${holder}` : ''}: stop it, or choose another port (PORT=3001 npm start).`,
        ),
      );
    });
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

/** "pid 1234 (node server.js)" listening on the port, from /proc (Linux); undefined when it cannot tell. */
export function portHolder(port: number): string | undefined {
  try {
    const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue;
      // "sl local_address rem_address st … inode": st 0A is LISTEN.
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
      }
    }
    if (inodes.size === 0) return undefined;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue; // another user's process, or gone
      }
      const holds = fds.some((fd) => {
        try {
          return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
        } catch {
          return false;
        }
      });
      if (holds) {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
        return `pid ${pid} (${command.length > 120 ? `${command.slice(0, 117)}…` : command})`;
      }
    }
  } catch {
    // no /proc (macOS): the message names the port alone
  }
  return undefined;
}
