/**
 * A tar archive holding one regular file: what Docker's putArchive wants to place a file in a
 * container. Ustar format, enough for any name up to 100 bytes (longer ones are refused rather
 * than silently cut).
 */
export function singleFileTar(
  name: string,
  data: Buffer,
  options: { mode?: number; mtime?: Date } = {},
): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length === 0 || nameBytes.length > 100 || name.includes('/')) {
    throw new RangeError(`tar entry name must be 1-100 bytes with no "/": ${name}`);
  }
  const header = Buffer.alloc(512, 0);
  const octal = (value: number, width: number): string =>
    `${value.toString(8).padStart(width - 1, '0')}\0`;
  nameBytes.copy(header, 0);
  header.write(octal(options.mode ?? 0o644, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii'); // uid
  header.write(octal(0, 8), 116, 'ascii'); // gid
  header.write(octal(data.length, 12), 124, 'ascii');
  const mtime = Math.floor((options.mtime ?? new Date()).getTime() / 1000);
  header.write(octal(mtime, 12), 136, 'ascii');
  header.write('        ', 148, 'ascii'); // checksum field counts as spaces while summing
  header.write('0', 156, 'ascii'); // regular file
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512, 0);
  return Buffer.concat([header, data, padding, Buffer.alloc(1024, 0)]);
}
