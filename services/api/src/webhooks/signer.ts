import { createHmac, randomBytes } from 'node:crypto';

/** A new webhook secret: 32 random bytes, hex. */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * `sha256=<hex>`: HMAC-SHA256 with the webhook's secret over `<timestamp>.<body>`, where the
 * timestamp is the X-Radio-Timestamp header (Unix seconds of this attempt). Binding the time
 * lets a receiver refuse an old request replayed later.
 */
export function signatureOf(secret: string, timestamp: string, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `sha256=${mac}`;
}

/** The headers of one attempt. */
export function signedHeaders(
  secret: string,
  event: string,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    'Content-Type': 'application/json',
    'X-Radio-Event': event,
    'X-Radio-Timestamp': timestamp,
    'X-Radio-Signature': signatureOf(secret, timestamp, body),
  };
}
