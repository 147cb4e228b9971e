import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  /** The throwaway CA's certificate (PEM), to be trusted by the clients of the test. */
  readonly ca: string;
  readonly caPath: string;
  /** The server's certificate for `localhost` and 127.0.0.1, signed by the CA. */
  readonly certPath: string;
  readonly keyPath: string;
}

/**
 * A CA made for one test run and a server certificate it signed, written into `dir` with
 * `openssl`: real certificate checks in the browser and in node, nothing to ignore.
 */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  await mkdir(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run('openssl', [
    ...['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem')],
    ...['-days', '2', '-subj', '/CN=Radio test CA'],
    ...['-addext', 'basicConstraints=critical,CA:TRUE'],
    ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  ]);
  await run('openssl', [
    ...['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr')],
    ...['-subj', '/CN=localhost'],
  ]);
  await writeFile(
    file('server.ext'),
    [
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  await run('openssl', [
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem')],
    ...['-CAkey', file('ca.key'), '-CAcreateserial', '-days', '2'],
    ...['-extfile', file('server.ext'), '-out', file('server.pem')],
  ]);
  return {
    ca: await readFile(file('ca.pem'), 'utf8'),
    caPath: file('ca.pem'),
    certPath: file('server.pem'),
    keyPath: file('server.key'),
  };
}

/**
 * A home folder whose NSS database trusts the CA: Chromium on Linux reads
 * `$HOME/.pki/nssdb`, so a browser started with this HOME trusts the test's certificates as
 * a user's own CA, with no flag that turns checks off.
 */
export async function homeTrusting(dir: string, caPath: string): Promise<string> {
  const nssdb = join(dir, '.pki', 'nssdb');
  await mkdir(nssdb, { recursive: true });
  await run('certutil', ['-d', `sql:${nssdb}`, '-N', '--empty-password']);
  await run('certutil', ['-d', `sql:${nssdb}`, '-A', '-t', 'C,,', '-n', 'test-ca', '-i', caPath]);
  return dir;
}
