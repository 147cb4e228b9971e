import { scanStartedSchema, scanStatusSchema, systemSchema } from '../dtos/admin.dto.ts';
import { emptyObject } from '../dtos/common.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { AdminService } from '../services/admin.service.ts';

export function adminController(routes: ApiRouter, admin: AdminService): void {
  routes.post(
    '/admin/library/scan',
    {
      tag: 'admin',
      summary: 'Start a library rescan',
      description:
        'Answers at once with the id of the scan; follow it with GET or the `library.scan` events.',
      access: 'admin',
      body: emptyObject,
      status: 202,
      response: scanStartedSchema,
      errors: [503],
    },
    async ({ res }) => {
      const started = await admin.startScan();
      res.setHeader('Location', '/api/radio/admin/library/scan');
      return started;
    },
  );

  routes.get(
    '/admin/library/scan',
    {
      tag: 'admin',
      summary: 'Progress of the running or last scan, and the library counts',
      access: 'admin',
      response: scanStatusSchema,
    },
    () => admin.scanStatus(),
  );

  routes.get(
    '/admin/system',
    {
      tag: 'admin',
      summary: 'Versions, uptime, memory, health of every service, library size, db and Redis',
      access: 'admin',
      response: systemSchema,
    },
    () => admin.system(),
  );
}
