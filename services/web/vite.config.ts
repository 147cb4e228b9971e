import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Logger, type Plugin, type UserConfig } from 'vite';
import { firstPageJs } from './server/bundle-size.ts';

const execFileP = promisify(execFile);
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;

/**
 * Writes `.br` and `.gz` beside every compressible file of the build, at the best ratio: it is
 * done once per build, so the web server never compresses a static file per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  let logger: Logger | null = null;
  return {
    name: 'radio-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle), 'index.html'].filter((name, index, all) => {
        return COMPRESSIBLE.test(name) && all.indexOf(name) === index;
      });
      await Promise.all(
        files.map(async (name) => {
          const path = join(outDir, name);
          const data = await readFile(path).catch(() => null);
          if (!data || data.length < 1024) return;
          const [br, gzipped] = await Promise.all([
            brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gz(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
        }),
      );
      const first = await firstPageJs(outDir);
      logger?.info(
        `first page JavaScript: ${(first.gzipBytes / 1024).toFixed(1)} KB gzipped ` +
          `(${(first.bytes / 1024).toFixed(1)} KB raw, ${first.files.length} files)`,
      );
    },
  };
}

/**
 * Writes src/api/schema.d.ts, the api's types (scripts/generate-api-types.ts), before a build
 * or the dev server: in a child process, so the api's code is never loaded into Vite's.
 */
function apiTypes(): Plugin {
  let root = '.';
  return {
    name: 'radio-api-types',
    configResolved(config) {
      root = config.root;
    },
    async buildStart() {
      await execFileP(process.execPath, [join(root, 'scripts', 'generate-api-types.ts')], {
        cwd: root,
      });
    },
  };
}

const apiUrl = process.env.API_URL || 'http://127.0.0.1:3000';

const config = {
  plugins: [apiTypes(), react(), precompress()],
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 2048,
    reportCompressedSize: false,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiUrl, changeOrigin: false, xfwd: true } },
  },
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build is for production even when NODE_ENV says otherwise (jest sets it to `test`): the
  // production React and JSX runtime are what get served and measured.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});
