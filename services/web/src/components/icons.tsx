import type { ReactNode } from 'react';

/* Inline icons (a few hundred bytes each, no icon font); decorative, the button names them. */

function Icon({ children, size = 20 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
      className="icon"
    >
      {children}
    </svg>
  );
}

export const PlayIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M8 5.14v13.72a1 1 0 0 0 1.52.85l10.7-6.86a1 1 0 0 0 0-1.7L9.52 4.29A1 1 0 0 0 8 5.14Z" />
  </Icon>
);
export const PauseIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" />
  </Icon>
);
export const StopIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <rect x="6" y="6" width="12" height="12" rx="1.5" />
  </Icon>
);
export const SkipIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M5 6.2v11.6a.8.8 0 0 0 1.25.66L14.5 12.6a.8.8 0 0 0 0-1.32L6.25 5.54A.8.8 0 0 0 5 6.2ZM16.5 5.5h2.5v13h-2.5z" />
  </Icon>
);
export const VolumeIcon = ({ muted, size }: { muted?: boolean; size?: number }) => (
  <Icon size={size}>
    <path d="M3 9.5v5h3.5L11 19V5L6.5 9.5z" />
    {muted ? (
      <path d="m15.3 9.4 1.4-1.4 2.3 2.3 2.3-2.3 1.4 1.4-2.3 2.3 2.3 2.3-1.4 1.4-2.3-2.3-2.3 2.3-1.4-1.4 2.3-2.3z" />
    ) : (
      <path d="M14 8.2a5 5 0 0 1 0 7.6l-1.2-1.3a3.2 3.2 0 0 0 0-5zM16.3 5.6a8.6 8.6 0 0 1 0 12.8L15 17.1a6.8 6.8 0 0 0 0-10.2z" />
    )}
  </Icon>
);
export const RadioIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M12 10.2a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6ZM7.8 7.6l-1.3-1.3a8 8 0 0 0 0 11.4l1.3-1.3a6.2 6.2 0 0 1 0-8.8Zm8.4 0a6.2 6.2 0 0 1 0 8.8l1.3 1.3a8 8 0 0 0 0-11.4ZM4.6 4.4 3.3 3.1a12.3 12.3 0 0 0 0 17.8l1.3-1.3a10.5 10.5 0 0 1 0-15.2Zm14.8 0a10.5 10.5 0 0 1 0 15.2l1.3 1.3a12.3 12.3 0 0 0 0-17.8Z" />
  </Icon>
);
export const PlusIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z" />
  </Icon>
);
export const TrashIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M9 3h6l1 2h4v2H4V5h4zM6 9h12l-1 11a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1z" />
  </Icon>
);
export const UpIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="m12 7 6 6-1.4 1.4-4.6-4.6-4.6 4.6L6 13z" />
  </Icon>
);
export const DownIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="m12 17-6-6 1.4-1.4 4.6 4.6 4.6-4.6L18 11z" />
  </Icon>
);
export const GripIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M9 5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm6 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm-6 5.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm6 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3ZM9 16a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm6 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Z" />
  </Icon>
);
export const QueueIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M3 6h13v2H3zm0 5h13v2H3zm0 5h8v2H3zm14-1v-4h2v4h4v2h-4v4h-2v-4h-4v-2z" />
  </Icon>
);
export const MusicIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M19 3v12.5a3.5 3.5 0 1 1-2-3.16V7.3l-8 1.6v8.6A3.5 3.5 0 1 1 7 14.34V5.4z" />
  </Icon>
);
export const SearchIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M10.5 4a6.5 6.5 0 0 1 5.2 10.4l4.4 4.4-1.4 1.4-4.4-4.4A6.5 6.5 0 1 1 10.5 4Zm0 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Z" />
  </Icon>
);
