import type { FirstAdmin } from '../auth/first-admin.ts';
import { authStatusSchema } from '../dtos/auth.dto.ts';
import { statusSchema, streamingStatusSchema } from '../dtos/status.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { StatusService } from '../services/status.service.ts';
import type { StreamingService } from '../services/streaming.service.ts';

export function statusController(
  routes: ApiRouter,
  services: { status: StatusService; streaming: StreamingService; firstAdmin: FirstAdmin },
): void {
  routes.get(
    '/status',
    {
      tag: 'status',
      summary: 'Service status',
      description:
        'Version, uptime and the health of the database, bus, stream server and scheduler.',
      access: 'public',
      response: statusSchema,
    },
    () => services.status.status(),
  );

  routes.get(
    '/auth-status',
    {
      tag: 'status',
      summary: 'Whether the caller is logged in, and whether the station waits for its first admin',
      access: 'public',
      response: authStatusSchema,
    },
    async ({ user }) => {
      const setupRequired = await services.firstAdmin.required();
      return user
        ? { authenticated: true, user, setupRequired }
        : { authenticated: false, setupRequired };
    },
  );

  routes.get(
    '/streaming-status',
    {
      tag: 'status',
      summary: 'Stream mounts, listeners and what is on air',
      access: 'public',
      response: streamingStatusSchema,
    },
    () => services.streaming.status(),
  );
}
