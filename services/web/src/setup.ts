import { checkCredentials } from './credentials.ts';

/** What the first-admin form needs before it asks the api; null when it may be sent. */
export function checkSetup(
  code: string,
  username: string,
  password: string,
  confirmation: string,
): string | null {
  if (!code.trim()) return 'Enter the setup code the station printed when it started.';
  const problem = checkCredentials('register', username, password);
  if (problem) return problem;
  if (password !== confirmation) return 'The two passwords are not the same.';
  return null;
}

/** Where the new admin lands: where they were, unless it was a sign-in page. */
export function afterSetup(pathname: string): string {
  return pathname === '/signin' || pathname === '/register' ? '/' : pathname;
}
