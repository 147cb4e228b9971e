import type { Config } from 'jest';

// Tests run as native ESM (music-metadata and other dependencies ship ESM only), with
// @swc/jest stripping types: it does not depend on the TypeScript version, and type errors
// are caught by `pnpm typecheck` instead of slowing every test run.
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/embedded'],
  testMatch: ['**/?(*.)test.ts?(x)'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2024' },
        module: { type: 'es6' },
      },
    ],
  },
  maxWorkers: 2,
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
};

export default config;
