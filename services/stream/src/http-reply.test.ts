import { describe, expect, test } from '@jest/globals';
import { errorReply, httpDate, responseHead } from './http-reply.ts';

describe('responses in Icecast form', () => {
  test('status line, fixed headers in order, then the extra ones', () => {
    const head = responseHead(200, {
      serverId: 'Icecast 2.4.4',
      contentType: 'audio/mpeg',
      late: ['icy-br:128'],
    });
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.0 200 OK',
      'Server: Icecast 2.4.4',
      'Connection: Close',
      `Date: ${httpDate()}`,
      'Content-Type: audio/mpeg',
      'Cache-Control: no-cache, no-store',
      'Expires: Mon, 26 Jul 1997 05:00:00 GMT',
      'Pragma: no-cache',
      'Access-Control-Allow-Origin: *',
      'icy-br:128',
      '',
      '',
    ]);
  });

  test('error bodies as Icecast sends them', () => {
    expect(errorReply('STREAM_NOT_FOUND')).toMatchObject({
      status: 404,
      contentType: 'text/html; charset=utf-8',
      body: '<html><head><title>Error 404</title></head><body><b>404 - The file you requested could not be found</b></body></html>\r\n',
    });
    expect(errorReply('STREAM_AUTH_REQUIRED')).toMatchObject({
      status: 401,
      early: ['WWW-Authenticate: Basic realm="Icecast2 Server"'],
      body: 'You need to authenticate\r\n',
    });
    expect(errorReply('STREAM_MOUNT_IN_USE')).toMatchObject({
      status: 403,
      contentType: 'text/plain; charset=utf-8',
      body: 'Mountpoint in use',
    });
  });

  test('the Date header is an RFC 7231 date', () => {
    expect(httpDate(Date.UTC(2026, 10, 21, 9, 2, 26, 500))).toBe('Sat, 21 Nov 2026 09:02:26 GMT');
  });
});
