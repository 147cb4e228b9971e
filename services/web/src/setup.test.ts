import { describe, expect, it } from '@jest/globals';
import { afterSetup, checkSetup } from './setup.ts';

describe('the first-admin form', () => {
  it('asks for the setup code first', () => {
    expect(checkSetup('  ', 'boss', 'long enough', 'long enough')).toMatch(/setup code/);
  });

  it('holds the admin to the registration rules', () => {
    expect(checkSetup('code', 'b', 'long enough', 'long enough')).toMatch(/3 to 32/);
    expect(checkSetup('code', 'boss', 'short', 'short')).toMatch(/at least 8/);
  });

  it('wants the password twice, the same', () => {
    expect(checkSetup('code', 'boss', 'long enough', 'long enougH')).toBe(
      'The two passwords are not the same.',
    );
    expect(checkSetup(' code ', ' boss ', 'long enough', 'long enough')).toBeNull();
  });

  it('lands where the admin was, unless that was a sign-in page', () => {
    expect(afterSetup('/admin/users')).toBe('/admin/users');
    expect(afterSetup('/signin')).toBe('/');
    expect(afterSetup('/register')).toBe('/');
  });
});
