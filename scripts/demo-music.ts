// Fills a music folder with a few tagged demo tracks made by ffmpeg, so a fresh station has
// something to play. Usage: pnpm demo-music [folder]   (default: MUSIC_DIR or ./music)
import { resolve } from 'node:path';
import { locateFfmpeg } from '@radio/core';
import { generateDemoLibrary } from '@radio/core/demo-library';

const dir = resolve(process.argv[2] ?? process.env.MUSIC_DIR ?? 'music');
const ffmpeg = locateFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH || undefined });
console.log(`Writing demo tracks into ${dir} with ${ffmpeg.path} ...`);
const files = await generateDemoLibrary(dir, { ffmpegPath: ffmpeg.path });
for (const file of files) console.log(`  ${file}`);
console.log(`${files.length} demo tracks written.`);
