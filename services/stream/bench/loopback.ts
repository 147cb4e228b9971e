/*
 * Where the bench's clients connect from. A real audience comes from many addresses, and the
 * stream server caps the connections of one (MAX_CONNECTIONS_PER_CLIENT, 100 by default):
 * the bench's listeners are spread over 200 loopback addresses per load generator worker
 * (127.0.<worker + 1>.1 … .200; Linux routes all of 127.0.0.0/8 to lo), so the cap is counted
 * for every connection, as in production, and 10,000 listeners stay far below it.
 */

const PER_WORKER = 200;

/** The source address of a worker's `index`th connection. */
export function loopbackAddress(worker: number, index: number): string {
  return `127.0.${(worker % 250) + 1}.${(index % PER_WORKER) + 1}`;
}
