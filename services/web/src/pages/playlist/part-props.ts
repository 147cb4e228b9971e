import type { PlaylistDetail } from '../../api/types.ts';

/** What the parts of the playlist page are given: the playlist, and how to show a changed one. */
export interface PlaylistPartProps {
  playlist: PlaylistDetail;
  canEdit: boolean;
  onChange: (next: PlaylistDetail) => void;
}
