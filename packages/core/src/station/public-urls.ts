/**
 * The base URL listeners are given for the mounts: PUBLIC_STREAM_URL, else PUBLIC_URL (a TLS
 * proxy carries the mounts on the station's origin: the compose `tls` profile, the tested nginx
 * file); undefined when neither is set. A plain-http PUBLIC_STREAM_URL beside an https
 * PUBLIC_URL gives way to PUBLIC_URL: a page served over https cannot play an http stream
 * (browsers block mixed content), and compose fills PUBLIC_STREAM_URL with its http default.
 */
export function listenerStreamBase(
  publicStreamUrl: string | undefined,
  publicUrl: string | undefined,
): string | undefined {
  if (publicStreamUrl === undefined) return publicUrl;
  const mixed = publicUrl?.startsWith('https:') === true && publicStreamUrl.startsWith('http:');
  return mixed ? publicUrl : publicStreamUrl;
}
