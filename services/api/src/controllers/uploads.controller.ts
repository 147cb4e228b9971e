import { z } from 'zod';
import {
  auditPageSchema,
  auditQuery,
  storageSchema,
  uploadResultSchema,
} from '../dtos/uploads.dto.ts';
import type { ApiRouter, RouteDoc } from '../routing.ts';
import type { LibraryAdmin } from '../uploads/library-admin.ts';

const TUS = 'Tus-Resumable';
const tusHeader = {
  name: TUS,
  in: 'request' as const,
  required: true,
  description: 'the tus protocol version: 1.0.0',
};
const uploadId = z.object({ id: z.string().describe('the upload id from the Location header') });

const create: RouteDoc = {
  tag: 'uploads',
  summary: 'Start an upload (tus 1.0 creation)',
  description:
    'tus 1.0 (https://tus.io/protocols/resumable-upload) with the creation, creation-defer-length, ' +
    'termination and expiration extensions. `Upload-Metadata` carries `filename` (required; a name ' +
    'with an extension the station plays) and `folder` (optional, relative to the music folder). ' +
    'Answers 201 with a relative `Location` to PATCH the bytes to. Refused before any byte: a bad ' +
    'name (400 UPLOAD_BAD_NAME), an extension the station does not play (415), an `Upload-Length` ' +
    'over MAX_UPLOAD_MB (413) or of 0 (422). Unfinished uploads are removed a day after they began.',
  access: 'dj',
  status: 201,
  errors: [413, 415, 422],
  headers: [
    tusHeader,
    {
      name: 'Upload-Length',
      in: 'request',
      description: 'the size in bytes (or Upload-Defer-Length: 1)',
    },
    {
      name: 'Upload-Metadata',
      in: 'request',
      required: true,
      description: 'filename <base64>,folder <base64>',
    },
    { name: 'Location', in: 'response', description: 'the upload URL (relative)' },
    { name: 'Upload-Expires', in: 'response', description: 'when an unfinished upload is removed' },
  ],
};

const patch: RouteDoc = {
  tag: 'uploads',
  summary: 'Send bytes of an upload; the last ones finish it',
  description:
    'Appends the body at `Upload-Offset`. While bytes remain: 204 with the new `Upload-Offset`. ' +
    'The PATCH that completes the upload is answered 200 with the UploadResult once the file is ' +
    'checked: audio the station plays (415 UPLOAD_NOT_AUDIO / UPLOAD_NO_AUDIO_STREAM / ' +
    'UPLOAD_VIDEO, 422 UPLOAD_UNDECODABLE / UPLOAD_TRUNCATED / UPLOAD_EMPTY_FILE), not a duplicate ' +
    'of a track (same audio packets: status `duplicate`), and put in its folder in one step ' +
    '(409 UPLOAD_NAME_TAKEN if another file holds the name). 413 when the body goes beyond the ' +
    'declared length or MAX_UPLOAD_MB, 507 UPLOAD_DISK_FULL when the music volume is full: the ' +
    'upload is dropped. 409 UPLOAD_OFFSET_CONFLICT: ask HEAD for the offset.',
  access: 'dj',
  params: uploadId,
  response: uploadResultSchema,
  consumes: {
    contentType: 'application/offset+octet-stream',
    description: 'the next bytes of the file',
  },
  errors: [404, 409, 410, 413, 415, 422, 507],
  headers: [
    tusHeader,
    { name: 'Upload-Offset', in: 'request', required: true, description: 'where the bytes go' },
    { name: 'Upload-Offset', in: 'response', description: 'the bytes received so far' },
  ],
};

const head: RouteDoc = {
  tag: 'uploads',
  summary: 'How much of an upload has arrived (to resume it)',
  description: 'A DJ sees only their own uploads; an admin any.',
  access: 'dj',
  params: uploadId,
  errors: [404, 410],
  headers: [
    tusHeader,
    { name: 'Upload-Offset', in: 'response', description: 'the bytes received so far' },
    { name: 'Upload-Length', in: 'response', description: 'the declared size' },
  ],
};

const terminate: RouteDoc = {
  tag: 'uploads',
  summary: 'Cancel an unfinished upload and drop its bytes (tus termination)',
  access: 'dj',
  params: uploadId,
  status: 204,
  errors: [404],
  headers: [tusHeader],
};

const options: RouteDoc = {
  tag: 'uploads',
  summary: "The tus server's version, extensions and size limit (Tus-Max-Size)",
  access: 'dj',
  status: 204,
  headers: [
    { name: 'Tus-Version', in: 'response', description: '1.0.0' },
    { name: 'Tus-Extension', in: 'response', description: 'the supported extensions' },
    { name: 'Tus-Max-Size', in: 'response', description: 'MAX_UPLOAD_MB in bytes' },
  ],
};

/**
 * The upload routes: tus's are served by the TusEndpoint (mounted before the JSON parser) and
 * only documented here; the admin's storage and audit views are served here.
 */
export function uploadsController(routes: ApiRouter, admin: LibraryAdmin): void {
  routes.document('options', '/uploads', options);
  routes.document('post', '/uploads', create);
  routes.document('head', '/uploads/:id', head);
  routes.document('patch', '/uploads/:id', patch);
  routes.document('delete', '/uploads/:id', terminate);

  routes.get(
    '/admin/storage',
    {
      tag: 'admin',
      summary: 'Disk space of the music volume, the trash and unfinished uploads',
      access: 'admin',
      response: storageSchema,
    },
    () => admin.storage(),
  );

  routes.get(
    '/admin/audit',
    {
      tag: 'admin',
      summary:
        'The audit log: who uploaded, edited, moved, deleted or restored what (newest first)',
      access: 'admin',
      query: auditQuery,
      response: auditPageSchema,
    },
    ({ query }) => admin.audit(query.page, query.limit, query.action),
  );
}
