import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { isModifiedClick, navigate, useLocation } from '../router.ts';

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string;
  /** Marks the link as the current page when the path starts with `to` (or equals it, if exact). */
  nav?: 'exact' | 'prefix';
}

/** An anchor that moves within the app without a reload (and still opens in a new tab). */
export function Link({ to, nav, onClick, children, ...rest }: LinkProps) {
  const { pathname } = useLocation();
  const current =
    nav === 'exact'
      ? pathname === to
      : nav === 'prefix'
        ? pathname === to || pathname.startsWith(`${to}/`)
        : false;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (isModifiedClick(event) || rest.target === '_blank') return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={handleClick} aria-current={current ? 'page' : undefined} {...rest}>
      {children}
    </a>
  );
}
