const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The same rules as the api, so most mistakes are caught before a request. */
export function checkCredentials(
  mode: 'signin' | 'register',
  username: string,
  password: string,
): string | null {
  const name = username.trim();
  if (!name) return 'Enter your user name.';
  if (!password) return 'Enter your password.';
  if (mode === 'signin') return null;
  if (name.length < 3 || name.length > 32) return 'The user name needs 3 to 32 characters.';
  if (!USERNAME.test(name)) {
    return 'The user name may use letters, digits, "_", "." and "-", starting with a letter or digit.';
  }
  if (password.length < 8) return 'The password needs at least 8 characters.';
  if (password.length > 256) return 'The password may have at most 256 characters.';
  return null;
}
