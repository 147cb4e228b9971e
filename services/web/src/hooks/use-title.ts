import { useEffect } from 'react';

/** Sets the document title ("Library · Radio") while the page is shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Radio` : 'Radio';
  }, [title]);
}
