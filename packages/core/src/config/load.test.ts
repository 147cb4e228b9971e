import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../errors.ts';
import { describeConfig, loadConfig, type Spec } from './load.ts';
import { apiSpec, embeddedSpec, schedulerSpec, streamSpec } from './schemas.ts';

const streamEnv = { ADMIN_PASSWORD: 'admin-password-1', SOURCE_PASSWORD: 'source-password' };

describe('loadConfig', () => {
  it('applies defaults and coerces numbers', () => {
    const config = loadConfig(streamSpec, streamEnv);
    expect(config.STREAM_PORT).toBe(8000);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.ADMIN_USER).toBe('admin');
    expect(loadConfig(streamSpec, { ...streamEnv, STREAM_PORT: '0' }).STREAM_PORT).toBe(0);
  });

  it('names a missing variable and what it expects, in one line', () => {
    expect(() => loadConfig(streamSpec, { SOURCE_PASSWORD: 's' })).toThrow(ConfigError);
    try {
      loadConfig(streamSpec, { SOURCE_PASSWORD: 's' });
    } catch (error) {
      const e = error as ConfigError;
      expect(e.code).toBe('CONFIG_INVALID');
      expect(e.variable).toBe('ADMIN_PASSWORD');
      expect(e.message).toMatch(/ADMIN_PASSWORD is required/);
      expect(e.message).not.toMatch(/\n/);
    }
  });

  it('names a malformed value with what was given', () => {
    expect(() => loadConfig(streamSpec, { ...streamEnv, STREAM_PORT: 'abc' })).toThrow(
      /STREAM_PORT must be a TCP port 0-65535 \(0 picks a free one\), got "abc"/,
    );
    expect(() => loadConfig(streamSpec, { ...streamEnv, STREAM_PORT: '70000' })).toThrow(
      /STREAM_PORT/,
    );
    expect(() => loadConfig(streamSpec, { ...streamEnv, LOG_LEVEL: 'loud' })).toThrow(
      /LOG_LEVEL must be one of fatal, error/,
    );
  });

  it('lists every bad variable and hides secrets', () => {
    const env = { ...streamEnv, STREAM_PORT: 'x', REDIS_URL: 'http://nope' };
    expect(() => loadConfig(streamSpec, env)).toThrow(
      /REDIS_URL must be .*; STREAM_PORT must be|STREAM_PORT must be .*; REDIS_URL must be/,
    );
    expect(() =>
      loadConfig(schedulerSpec, {
        ...streamEnv,
        DATABASE_URL: 'sqlite:x',
        CROSSFADE_SECONDS: '99',
      }),
    ).toThrow(/CROSSFADE_SECONDS must be seconds of crossfade/);
    expect(() =>
      loadConfig(embeddedSpec, { SESSION_SECRET: 'too-short-secret'.slice(0, 5) }),
    ).toThrow(/SESSION_SECRET must be .*got \(hidden\)/);
  });

  it('reads the playout levels and refuses them out of range', () => {
    const env = { ...streamEnv, DATABASE_URL: 'sqlite:x' };
    const defaults = loadConfig(schedulerSpec, env);
    expect(defaults.LOUDNESS_TARGET).toBe(-16);
    expect(defaults.DEAD_AIR_SECONDS).toBe(10);
    expect(defaults.FALLBACK_FILE).toBeUndefined();
    expect(loadConfig(schedulerSpec, { ...env, LOUDNESS_TARGET: 'off' }).LOUDNESS_TARGET).toBe(
      null,
    );
    expect(loadConfig(schedulerSpec, { ...env, LOUDNESS_TARGET: '-23' }).LOUDNESS_TARGET).toBe(-23);
    expect(() => loadConfig(schedulerSpec, { ...env, LOUDNESS_TARGET: '-5' })).toThrow(
      /LOUDNESS_TARGET must be off, or the loudness/,
    );
    expect(() => loadConfig(schedulerSpec, { ...env, DEAD_AIR_SECONDS: '0' })).toThrow(
      /DEAD_AIR_SECONDS must be seconds of silence/,
    );
  });

  it('reads the live input settings with their defaults and bounds', () => {
    const env = { ...streamEnv, DATABASE_URL: 'sqlite:x' };
    const defaults = loadConfig(schedulerSpec, env);
    expect(defaults.LIVE_HOST).toBe('127.0.0.1');
    expect(defaults.LIVE_PORT).toBe(8005);
    expect(defaults.LIVE_FADE_SECONDS).toBe(1);
    expect(defaults.LIVE_SILENCE_SECONDS).toBe(15);
    expect(loadConfig(schedulerSpec, { ...env, LIVE_FADE_SECONDS: '0.5' }).LIVE_FADE_SECONDS).toBe(
      0.5,
    );
    expect(() => loadConfig(schedulerSpec, { ...env, LIVE_SILENCE_SECONDS: '1' })).toThrow(
      /LIVE_SILENCE_SECONDS must be seconds a live DJ/,
    );
    expect(() => loadConfig(schedulerSpec, { ...env, LIVE_PORT: 'x' })).toThrow(/LIVE_PORT/);
  });

  it('reads how long a mount may be without a source before station.offline (api)', () => {
    const env = {
      DATABASE_URL: 'sqlite:x',
      SESSION_SECRET: 'test-session-secret-0123456789',
      ADMIN_PASSWORD: 'admin-password-1',
    };
    expect(loadConfig(apiSpec, env).WEBHOOK_OFFLINE_SECONDS).toBe(30);
    expect(
      loadConfig(apiSpec, { ...env, WEBHOOK_OFFLINE_SECONDS: '' }).WEBHOOK_OFFLINE_SECONDS,
    ).toBe(30);
    expect(
      loadConfig(apiSpec, { ...env, WEBHOOK_OFFLINE_SECONDS: '90' }).WEBHOOK_OFFLINE_SECONDS,
    ).toBe(90);
    expect(loadConfig(embeddedSpec, { WEBHOOK_OFFLINE_SECONDS: '5' }).WEBHOOK_OFFLINE_SECONDS).toBe(
      5,
    );
    for (const bad of ['0', '-5', '1.5', 'abc', '30s', '86401']) {
      try {
        loadConfig(apiSpec, { ...env, WEBHOOK_OFFLINE_SECONDS: bad });
        throw new Error(`${bad} was accepted`);
      } catch (error) {
        const e = error as ConfigError;
        expect(e).toBeInstanceOf(ConfigError);
        expect(e.variable).toBe('WEBHOOK_OFFLINE_SECONDS');
        expect(e.message).toBe(
          `Invalid configuration: WEBHOOK_OFFLINE_SECONDS must be whole seconds a mount may be without a source before webhooks send station.offline, 1-86400, got ${JSON.stringify(bad)}`,
        );
      }
    }
  });

  it('treats an empty string as unset', () => {
    expect(loadConfig(streamSpec, { ...streamEnv, STREAM_PORT: '' }).STREAM_PORT).toBe(8000);
    expect(() => loadConfig(streamSpec, { ...streamEnv, ADMIN_PASSWORD: '' })).toThrow(
      /ADMIN_PASSWORD is required/,
    );
  });

  it('accepts both database URL forms and rejects others', () => {
    const base = { ...streamEnv };
    expect(
      loadConfig(schedulerSpec, { ...base, DATABASE_URL: 'sqlite:./data/radio.db' }).DATABASE_URL,
    ).toBe('sqlite:./data/radio.db');
    expect(
      loadConfig(schedulerSpec, { ...base, DATABASE_URL: 'postgres://u:p@db:5432/radio' })
        .DATABASE_URL,
    ).toBe('postgres://u:p@db:5432/radio');
    expect(() => loadConfig(schedulerSpec, { ...base, DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must be sqlite:<file>/,
    );
  });

  it('refuses the CHANGE_ME placeholders of .env.example, naming the variable in one line', () => {
    const refused = (env: Record<string, string>, spec: Spec = streamSpec): ConfigError => {
      try {
        loadConfig(spec, env);
      } catch (error) {
        return error as ConfigError;
      }
      throw new Error('the placeholder was accepted');
    };
    const e = refused({ ...streamEnv, ADMIN_PASSWORD: 'CHANGE_ME_admin_password' });
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.variable).toBe('ADMIN_PASSWORD');
    expect(e.message).toMatch(
      /ADMIN_PASSWORD is still the placeholder CHANGE_ME… of \.env\.example/,
    );
    expect(e.message).not.toMatch(/\n/);
    expect(e.message).not.toContain('admin_password');

    // Every placeholder is named, the others' problems too.
    const both = refused({
      ADMIN_PASSWORD: 'CHANGE_ME_admin_password',
      SOURCE_PASSWORD: ' CHANGE_ME',
      STREAM_PORT: 'x',
    });
    expect(both.message).toMatch(/ADMIN_PASSWORD is still.*SOURCE_PASSWORD is still/);
    expect(both.message).toMatch(/STREAM_PORT must be/);

    // A database URL built from POSTGRES_PASSWORD=CHANGE_ME… (docker-compose.yml does that).
    const db = refused(
      {
        ...streamEnv,
        DATABASE_URL: 'postgres://radio:CHANGE_ME_postgres_password@postgres:5432/radio',
      },
      schedulerSpec,
    );
    expect(db.variable).toBe('DATABASE_URL');
    expect(db.message).toMatch(
      /DATABASE_URL has the placeholder password CHANGE_ME… .*POSTGRES_PASSWORD/,
    );
    expect(db.message).not.toContain('postgres_password');
    expect(
      refused(
        { ...streamEnv, DATABASE_URL: 'postgres://radio:CHANGE%5FME%5Fx@db/radio' },
        schedulerSpec,
      ).variable,
    ).toBe('DATABASE_URL');
  });

  it('accepts values that merely contain CHANGE_ME', () => {
    expect(
      loadConfig(streamSpec, { ...streamEnv, ADMIN_PASSWORD: 'xyz-CHANGE_ME' }).ADMIN_PASSWORD,
    ).toBe('xyz-CHANGE_ME');
    const url = 'postgres://CHANGE_ME:s3cret@db:5432/CHANGE_ME';
    expect(loadConfig(schedulerSpec, { ...streamEnv, DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it('describes the running configuration with secrets masked', () => {
    const config = loadConfig(streamSpec, streamEnv);
    const shown = describeConfig(streamSpec, config);
    expect(shown.ADMIN_PASSWORD).toBe('********');
    expect(shown.SOURCE_PASSWORD).toBe('********');
    expect(shown.STREAM_PORT).toBe(8000);
    expect(shown.REDIS_URL).toBeNull();
  });

  it('wants passwords of 12 or more characters in containers, any in embedded mode', () => {
    expect(() => loadConfig(streamSpec, { ...streamEnv, ADMIN_PASSWORD: 'short-pass1' })).toThrow(
      /ADMIN_PASSWORD must be .*12 or more characters/,
    );
    expect(() => loadConfig(streamSpec, { ...streamEnv, SOURCE_PASSWORD: 'hackme' })).toThrow(
      /SOURCE_PASSWORD must be .*12 or more characters/,
    );
    const embedded = loadConfig(embeddedSpec, { ADMIN_PASSWORD: 'short', SOURCE_PASSWORD: 's' });
    expect(embedded.ADMIN_PASSWORD).toBe('short');
  });

  it('reads the public address, the allowed origins and the trusted proxies', () => {
    const env = { ...streamEnv, SESSION_SECRET: 'x'.repeat(16), DATABASE_URL: 'sqlite:x.db' };
    const config = loadConfig(apiSpec, {
      ...env,
      PUBLIC_URL: 'https://radio.example/',
      ALLOWED_ORIGINS: 'https://a.example, http://b.example:8080',
      TRUSTED_PROXIES: '10.0.0.0/8, caddy,::1',
    });
    expect(config.PUBLIC_URL).toBe('https://radio.example');
    expect(config.ALLOWED_ORIGINS).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(config.TRUSTED_PROXIES).toEqual(['10.0.0.0/8', 'caddy', '::1']);
    for (const [name, value] of [
      ['PUBLIC_URL', 'https://radio.example/station'],
      ['PUBLIC_URL', 'ftp://radio.example'],
      ['ALLOWED_ORIGINS', 'https://a.example/'],
      ['ALLOWED_ORIGINS', 'a.example'],
      ['TRUSTED_PROXIES', '10.0.0.0/33'],
      ['SETUP_CODE', 'short'],
    ]) {
      expect(() => loadConfig(apiSpec, { ...env, [name as string]: value })).toThrow(
        new RegExp(`${name} must be`),
      );
    }
  });

  it('stops on TRUST_PROXY turned on, naming what replaces it; ignores it turned off', () => {
    expect(() => loadConfig(streamSpec, { ...streamEnv, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY is replaced by TRUSTED_PROXIES/,
    );
    expect(loadConfig(streamSpec, { ...streamEnv, TRUST_PROXY: 'false' }).STREAM_PORT).toBe(8000);
  });
});
