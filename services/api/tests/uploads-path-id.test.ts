/**
 * The tus routes act on the upload their path names, and on nothing a query string says:
 * @tus/server takes the id from the end of the whole URL, so `PATCH /uploads/<mine>?x=/<theirs>`
 * passed the check on <mine> and wrote into <theirs>. Real HTTP on loopback, both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { createUser, startTestApi, type TestApi } from './helpers/test-api.ts';
import {
  createUpload,
  errorCode,
  loginCookie,
  patchUpload,
  send,
  uploadOffset,
} from './helpers/tus.ts';

const LENGTH = 64;

describe.each(ROUTE_SETUPS)('tus ids come from the path alone ($dialect)', (setup) => {
  let t: TestApi;
  let ana: string;
  let ben: string;
  let anasUpload: string;
  let bensUpload: string;

  const start = async (cookie: string): Promise<string> => {
    const created = await createUpload({
      base: t.api.url,
      cookie,
      metadata: { filename: 'song.mp3' },
      length: LENGTH,
    });
    expect(created.status).toBe(201);
    return created.location as string;
  };
  const idOf = (url: string) => new URL(url).pathname.split('/').pop() as string;

  beforeAll(async () => {
    t = await startTestApi(setup);
    await createUser(t.db, 'ana', 'dj');
    await createUser(t.db, 'ben', 'dj');
    ana = await loginCookie(t.api.url, 'ana');
    ben = await loginCookie(t.api.url, 'ben');
    anasUpload = await start(ana);
    bensUpload = await start(ben);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("refuses a PATCH whose query points at another DJ's upload; that upload is untouched", async () => {
    for (const query of [`?x=/${idOf(anasUpload)}`, `?/${idOf(anasUpload)}`]) {
      const answer = await patchUpload(`${bensUpload}${query}`, ben, 0, Buffer.alloc(16, 1));
      expect({ status: answer.status, code: errorCode(answer) }).toEqual({
        status: 400,
        code: 'UPLOAD_BAD_REQUEST',
      });
    }
    expect(await uploadOffset(anasUpload, ana)).toBe(0);
    expect(await uploadOffset(bensUpload, ben)).toBe(0);
  });

  it("refuses a DELETE whose query points at another DJ's upload; that upload stays", async () => {
    const answer = await send({
      method: 'DELETE',
      url: `${bensUpload}?x=/${idOf(anasUpload)}`,
      cookie: ben,
    });
    expect({ status: answer.status, code: errorCode(answer) }).toEqual({
      status: 400,
      code: 'UPLOAD_BAD_REQUEST',
    });
    expect(await uploadOffset(anasUpload, ana)).toBe(0);
  });

  it('still serves the path without a query: each DJ its own upload', async () => {
    const patched = await patchUpload(bensUpload, ben, 0, Buffer.alloc(16, 1));
    expect(patched.status).toBe(204);
    expect(await uploadOffset(bensUpload, ben)).toBe(16);
    expect(await uploadOffset(anasUpload, ana)).toBe(0);
    const notYours = await patchUpload(anasUpload, ben, 0, Buffer.alloc(16, 1));
    expect(errorCode(notYours)).toBe('UPLOAD_NOT_YOURS');
  });
});
