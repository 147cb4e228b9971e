#!/usr/bin/env node
// Node strips the types of this file and of main.ts: pnpm's bin shim runs `node` on this
// path, which resolves to packages/ops (Node refuses to strip types under node_modules only).
import { runCli } from '../src/main.ts';

await runCli();
