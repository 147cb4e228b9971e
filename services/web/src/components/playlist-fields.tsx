import { useId } from 'react';

interface PlaylistFieldsProps {
  name: string;
  description: string;
  onName(name: string): void;
  onDescription(description: string): void;
  descriptionRows: number;
}

/** The name and description inputs that creating and editing a playlist share. */
export function PlaylistFields(props: PlaylistFieldsProps) {
  const nameId = useId();
  const descriptionId = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          value={props.name}
          maxLength={200}
          onChange={(e) => props.onName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={descriptionId}>Description</label>
        <textarea
          id={descriptionId}
          rows={props.descriptionRows}
          maxLength={2000}
          value={props.description}
          onChange={(e) => props.onDescription(e.target.value)}
        />
      </div>
    </>
  );
}
