import { type PointerEvent, useEffect, useRef, useState } from 'react';
import type { Occurrence } from '../../api/types.ts';
import {
  addDays,
  type Block,
  dragDelta,
  formatHm,
  type Geometry,
  pointToMinutes,
} from './calendar.ts';

export const HOUR_HEIGHT = 40;
const DRAG_THRESHOLD_PX = 4;
const HOURS = Array.from({ length: 24 }, (_, hour) => formatHm(hour * 60));
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export interface MoveDelta {
  minutes: number;
  days: number;
}

interface WeekGridProps {
  monday: string;
  today: string;
  blocks: Block<Occurrence>[];
  canEdit: boolean;
  onCreate(day: string, minutes: number): void;
  onOpen(occurrence: Occurrence): void;
  onMove(occurrence: Occurrence, delta: MoveDelta): void;
}

interface Drag {
  scheduleId: number;
  x: number;
  y: number;
  moved: boolean;
  delta: MoveDelta;
}

function blockLabel(block: Block<Occurrence>): string {
  const { occurrence } = block;
  const kind = occurrence.dj ? `DJ show: ${occurrence.dj.name}` : 'Playlist';
  const name = occurrence.title ?? occurrence.playlist?.name ?? occurrence.dj?.name ?? 'Entry';
  return `${name} (${kind}), ${formatHm(block.top)} to ${formatHm(block.bottom)}`;
}

function blockKey(block: Block<Occurrence>): string {
  return `${block.occurrence.scheduleId}-${block.occurrence.start}-${block.column}`;
}

interface WeekBlockProps {
  block: Block<Occurrence>;
  /** Where a drag in progress has moved it, snapped; null when it is not being dragged. */
  drag: MoveDelta | null;
  readOnly: boolean;
  onPointerDown(event: PointerEvent<HTMLButtonElement>): void;
  onPointerMove(event: PointerEvent<HTMLButtonElement>): void;
  onPointerUp(): void;
  onPointerCancel(): void;
  onKeyboardOpen(): void;
}

/** One entry's piece in a day column, placed by its block, shifted while dragged. */
function WeekBlock({ block, drag, readOnly, onKeyboardOpen, ...pointer }: WeekBlockProps) {
  const { occurrence } = block;
  const shift = drag
    ? `translate(calc(${drag.days} * 100% * ${block.lanes}), ${(drag.minutes / 60) * HOUR_HEIGHT}px)`
    : undefined;
  const label = blockLabel(block);
  return (
    <button
      type="button"
      className={`week-block${occurrence.dj ? ' week-block-live' : ''}${drag ? ' dragging' : ''}`}
      data-schedule-id={occurrence.scheduleId}
      aria-label={label}
      title={label}
      style={{
        top: (block.top / 60) * HOUR_HEIGHT,
        height: Math.max(12, ((block.bottom - block.top) / 60) * HOUR_HEIGHT),
        left: `${(block.lane / block.lanes) * 100}%`,
        width: `${100 / block.lanes}%`,
        transform: shift,
      }}
      {...pointer}
      onClick={(event) => {
        // Pointers are handled by the drag (a press without a move opens the entry); a
        // keyboard press has no pointer (detail 0), and read-only entries just open.
        if (readOnly || event.detail === 0) onKeyboardOpen();
      }}
    >
      <strong>{occurrence.title ?? occurrence.playlist?.name ?? occurrence.dj?.name}</strong>
      <span>
        {block.continued ? '… ' : ''}
        {formatHm(block.top)}–{formatHm(block.bottom)}
        {occurrence.dj ? ' · live' : ''}
      </span>
    </button>
  );
}

/**
 * Seven day columns of 24 hour rows. A click on an empty hour asks to create an entry there; a
 * click on an entry opens it; dragging an entry (pointer events, captured) previews the move in
 * quarter hours and whole days and hands the snapped distance over on release.
 */
export function WeekGrid(props: WeekGridProps) {
  const { monday, blocks, canEdit } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);

  useEffect(() => {
    // Morning first (its label in full): the small hours are a scroll away.
    if (scroller.current) scroller.current.scrollTop = 6 * HOUR_HEIGHT - 10;
  }, []);

  const geometry = (element: HTMLElement): Geometry => {
    const column = element.closest('.week-day');
    return { hourHeight: HOUR_HEIGHT, dayWidth: column?.getBoundingClientRect().width || 1 };
  };

  const clickDay = (day: string, event: PointerEvent<HTMLDivElement>) => {
    if (!canEdit || event.target !== event.currentTarget) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const minutes = pointToMinutes(event.clientY - rect.top, geometry(event.currentTarget), 60);
    props.onCreate(day, minutes);
  };

  const down = (block: Block<Occurrence>, event: PointerEvent<HTMLButtonElement>) => {
    if (!canEdit || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({
      scheduleId: block.occurrence.scheduleId,
      x: event.clientX,
      y: event.clientY,
      moved: false,
      delta: { minutes: 0, days: 0 },
    });
  };

  const move = (event: PointerEvent<HTMLButtonElement>) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    const moved = drag.moved || Math.hypot(dx, dy) > DRAG_THRESHOLD_PX;
    setDrag({ ...drag, moved, delta: dragDelta(dx, dy, geometry(event.currentTarget)) });
  };

  const up = (block: Block<Occurrence>) => {
    if (!drag) return;
    setDrag(null);
    if (!drag.moved) props.onOpen(block.occurrence);
    else if (drag.delta.minutes !== 0 || drag.delta.days !== 0) {
      props.onMove(block.occurrence, drag.delta);
    }
  };

  return (
    <div className="week" data-testid="week-grid">
      <div className="week-head">
        <span />
        {DAY_NAMES.map((name, index) => {
          const date = addDays(monday, index);
          return (
            <span key={name} className={date === props.today ? 'week-today' : undefined}>
              {name} {Number(date.slice(8))}
            </span>
          );
        })}
      </div>
      <div className="week-body" ref={scroller}>
        <div className="week-hours" aria-hidden="true">
          {HOURS.map((label) => (
            <span key={label} style={{ height: HOUR_HEIGHT }}>
              {label}
            </span>
          ))}
        </div>
        {DAY_NAMES.map((name, index) => {
          const date = addDays(monday, index);
          return (
            <div
              key={name}
              className={canEdit ? 'week-day editable' : 'week-day'}
              data-day={date}
              style={{ height: 24 * HOUR_HEIGHT }}
              onPointerUp={(event) => clickDay(date, event)}
            >
              {blocks
                .filter((block) => block.column === index)
                .map((block) => (
                  <WeekBlock
                    key={blockKey(block)}
                    block={block}
                    drag={
                      drag?.moved && drag.scheduleId === block.occurrence.scheduleId
                        ? drag.delta
                        : null
                    }
                    onPointerDown={(event) => down(block, event)}
                    onPointerMove={move}
                    onPointerUp={() => up(block)}
                    onPointerCancel={() => setDrag(null)}
                    onKeyboardOpen={() => props.onOpen(block.occurrence)}
                    readOnly={!canEdit}
                  />
                ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
