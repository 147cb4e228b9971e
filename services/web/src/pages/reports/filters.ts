import type { QueryOf } from '../../api/paths.ts';

/* The Reports page's filters as the URL holds them, so a filtered report can be shared. */

type ListenersQuery = QueryOf<'get', '/reports/listeners'>;
export type ClientFamily = NonNullable<ListenersQuery['client']>;

/** Each client family in words, in the order the page lists them. */
export const CLIENT_NAMES: Record<ClientFamily, string> = {
  browser: 'Web browsers',
  app: 'Apps',
  player: 'Media players',
  bot: 'Bots and monitors',
  other: 'Other',
};

export const CLIENT_FAMILIES = Object.keys(CLIENT_NAMES) as ClientFamily[];

export interface ReportFilters {
  mount: string | null;
  country: string | null;
  client: ClientFamily | null;
}

export const NO_FILTERS: ReportFilters = { mount: null, country: null, client: null };

/** The filters in a URL query; what the api would refuse is left out. */
export function readReportFilters(search: string): ReportFilters {
  const params = new URLSearchParams(search);
  const mount = params.get('mount');
  const country = params.get('country')?.toUpperCase() ?? null;
  const client = params.get('client');
  return {
    mount: mount && mount.length <= 200 ? mount : null,
    country: country && /^[A-Z]{2}$/.test(country) ? country : null,
    client: CLIENT_FAMILIES.includes(client as ClientFamily) ? (client as ClientFamily) : null,
  };
}

export const isFiltered = (filters: ReportFilters) =>
  filters.mount !== null || filters.country !== null || filters.client !== null;

/** The filters as the listeners report's query (the ones set only). */
export function filterQuery(
  filters: ReportFilters,
): Pick<ListenersQuery, 'mount' | 'country' | 'client'> {
  return {
    ...(filters.mount === null ? {} : { mount: filters.mount }),
    ...(filters.country === null ? {} : { country: filters.country }),
    ...(filters.client === null ? {} : { client: filters.client }),
  };
}
