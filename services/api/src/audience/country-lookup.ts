import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import maxmind, { type Reader, type Response } from 'maxmind';

/**
 * A record of @ip-location-db's GeoLite2 country database: not MaxMind's own layout, which is
 * all maxmind's types know, hence the reader typed by theirs and its records read as this.
 */
interface CountryRecord {
  country_code?: string;
}

/** The database ships inside an npm package: nothing is fetched at run time. */
const DATABASE = '@ip-location-db/geolite2-country-mmdb/geolite2-country.mmdb';

/**
 * Countries of addresses from the offline GeoLite2 country database, opened once on first use.
 * Private, loopback and unknown addresses have none.
 */
export class CountryLookup {
  #reader: Promise<Reader<Response>> | null = null;

  /** Where the database file is (for the image check and the README). */
  static path(): string {
    return createRequire(import.meta.url).resolve(DATABASE);
  }

  /** Opens the database now (else the first lookup does); rejects if the file is missing. */
  open(): Promise<void> {
    return this.#open().then(() => undefined);
  }

  /** ISO 3166-1 alpha-2, or null. */
  async country(address: string | null): Promise<string | null> {
    if (address === null) return null;
    const ip = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
    if (isIP(ip) === 0) return null;
    const record = (await this.#open()).get(ip) as CountryRecord | null;
    const code = record?.country_code;
    return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
  }

  #open(): Promise<Reader<Response>> {
    this.#reader ??= maxmind.open<Response>(CountryLookup.path()).catch((error: unknown) => {
      this.#reader = null;
      throw error;
    });
    return this.#reader;
  }
}
