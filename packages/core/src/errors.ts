/**
 * Base class of every error the station raises on purpose. `code` is stable and is what
 * callers and tests compare; the message is for people.
 */
export class RadioError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A value from the environment is missing or malformed. */
export class ConfigError extends RadioError {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super('CONFIG_INVALID', message);
    this.variable = variable;
  }
}
