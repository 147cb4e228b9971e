import { describe, expect, it } from '@jest/globals';
import { AnalysisLogParser } from './log-parser.ts';

// Lines as `ffmpeg -v verbose` prints them for
// `[0:a:0]ebur128=peak=true:framelog=verbose,silencedetect=n=-60dB:d=0.05[out]` (ffmpeg 5.1).
const EBU = '[Parsed_ebur128_0 @ 0x5617e41f7b40]';
const SILENCE = '[silencedetect @ 0x5617e41f80c0]';

function frame(t: number, momentary: number | string): string {
  const m = typeof momentary === 'number' ? momentary.toFixed(1).padStart(6) : momentary;
  return `${EBU} t: ${String(Number(t.toFixed(5))).padEnd(10)} TARGET:-23 LUFS    M:${m} S:-120.7     I: -70.0 LUFS       LRA:   0.0 LU  FTPK:  -inf  -inf dBFS  TPK:  -inf  -inf dBFS`;
}

function summary(integrated: string, range: string, peak: string): string[] {
  return [
    `${EBU} Summary:`,
    '',
    '  Integrated loudness:',
    `    I:         ${integrated} LUFS`,
    '    Threshold: -32.7 LUFS',
    '',
    '  Loudness range:',
    `    LRA:         ${range} LU`,
    '    Threshold: -45.2 LUFS',
    '    LRA low:   -32.1 LUFS',
    '    LRA high:  -22.5 LUFS',
    '',
    '  True peak:',
    `    Peak:      ${peak} dBFS`,
  ];
}

const HEAD = [
  // ffmpeg configures a graph and drops it before decoding: its empty summary comes first.
  ...summary('-70.0', '0.0', '-inf'),
  '[graph_0_in_0_0 @ 0x5617e41f8a00] tb:1/44100 samplefmt:fltp samplerate:44100 chlayout:stereo',
];

function tail(samples: number): string[] {
  return [
    'No more output streams to write to, finishing.',
    'size=N/A time=00:00:13.00 bitrate=N/A speed= 170x    ',
    `  Input stream #0:0 (audio): 499 packets read (208561 bytes); 499 frames decoded (${samples} samples); `,
    `  Output stream #0:0 (audio): 130 frames encoded (${samples} samples); 130 packets muxed (2293200 bytes); `,
  ];
}

/** Frames every 100 ms from `from` to `to` (exclusive) at a momentary loudness. */
function frames(from: number, to: number, momentary: (t: number) => number): string[] {
  const lines: string[] = [];
  for (let t = from + 0.1; t <= to + 1e-9; t += 0.1) lines.push(frame(t, momentary(t)));
  return lines;
}

function parse(lines: string[]): AnalysisLogParser {
  const parser = new AnalysisLogParser();
  for (const line of lines) parser.line(line);
  return parser;
}

describe('AnalysisLogParser', () => {
  it('reads loudness, cue points and fade point from a padded track', () => {
    // 4 s of silence, 3 s of tone, 6 s of silence (what pad.mp3 printed).
    const parser = parse([
      ...HEAD,
      `${SILENCE} silence_start: 0`,
      ...frames(0, 4, () => -120.7),
      `${SILENCE} silence_end: 4.00005 | silence_duration: 4.00005`,
      ...frames(4, 7, () => -22.1),
      `${SILENCE} silence_start: 7.00079`,
      ...frames(7, 13, () => -172.1),
      ...tail(573_300),
      ...summary('-22.6', '9.7', '-20.3'),
      `${SILENCE} silence_end: 13 | silence_duration: 5.99921`,
    ]);
    expect(parser.result()).toEqual({
      ok: true,
      measurement: {
        loudness: -22.6,
        loudnessRange: 9.7,
        truePeak: -20.3,
        cueIn: 4.00005,
        cueOut: 7.00079,
        fadePoint: 7,
        duration: 13,
      },
    });
  });

  it('puts the fade point at the end of the last block within 12 LU of the integrated loudness', () => {
    // A 10 s track at -14 that falls 2 LU per 100 ms from 8 s: -26 is reached at 8.6 s.
    const fading = (t: number) => (t <= 8 + 1e-9 ? -14 : -14 - Math.round((t - 8) * 10) * 2);
    const end = [...tail(441_000), ...summary('-14.0', '3.0', '-1.2')];
    const result = parse([...HEAD, ...frames(0, 10, fading), ...end]).result();
    expect(result.ok && result.measurement.fadePoint).toBeCloseTo(8.6, 5);
    expect(result.ok && result.measurement.cueOut).toBe(10);
    expect(result.ok && result.measurement.cueIn).toBe(0);
    // A loud moment after the fade-out counts: the ending is not over before it.
    const blip = (t: number) => (Math.abs(t - 9.5) < 0.01 ? -13 : fading(t));
    const late = parse([...HEAD, ...frames(0, 10, blip), ...end]).result();
    expect(late.ok && late.measurement.fadePoint).toBeCloseTo(9.5, 5);
  });

  it('keeps the fade point between the cue points', () => {
    const parser = parse([
      ...HEAD,
      `${SILENCE} silence_start: 0`,
      `${SILENCE} silence_end: 1.5 | silence_duration: 1.5`,
      ...frames(0, 5, () => -10),
      ...tail(220_500),
      ...summary('-10.0', '0.0', '-3.0'),
      `${SILENCE} silence_start: 4.2`,
    ]);
    const result = parser.result();
    // A silence still open at the end runs to the end; the frames say loud to 5 s.
    expect(result.ok && result.measurement).toMatchObject({ cueIn: 1.5, cueOut: 4.2 });
    expect(result.ok && result.measurement.fadePoint).toBe(4.2);
  });

  it('does not take a silence in the middle for a cue point', () => {
    const parser = parse([
      ...HEAD,
      ...frames(0, 10, () => -16),
      `${SILENCE} silence_start: 3`,
      `${SILENCE} silence_end: 4 | silence_duration: 1`,
      ...tail(441_000),
      ...summary('-16.3', '1.0', '-4.0'),
    ]);
    const result = parser.result();
    expect(result.ok && result.measurement).toMatchObject({ cueIn: 0, cueOut: 10, duration: 10 });
  });

  it('gives the duration from the frame log when ffmpeg printed no sample count', () => {
    const parser = parse([...HEAD, ...frames(0, 2, () => -20), ...summary('-20.0', '0.0', '-8.0')]);
    expect(parser.decodedSeconds).toBeCloseTo(2, 5);
    const result = parser.result();
    expect(result.ok && result.measurement.duration).toBeCloseTo(2, 5);
  });

  it('refuses a silent, a too short or an unmeasured file', () => {
    const silent = parse([
      ...HEAD,
      `${SILENCE} silence_start: 0`,
      ...frames(0, 5, () => -120.7),
      ...tail(220_500),
      ...summary('-70.0', '0.0', '-inf'),
      `${SILENCE} silence_end: 5 | silence_duration: 5`,
    ]);
    expect(silent.result()).toEqual({
      ok: false,
      reason: 'no audible audio: the file is silent throughout',
    });
    const short = parse([...HEAD, ...tail(8820), ...summary('-70.0', '0.0', '-12.0')]);
    expect(short.result()).toEqual({ ok: false, reason: 'too short to measure (0.20 s)' });
    expect(parse(HEAD.slice(-1).concat(frames(0, 2, () => -20))).result()).toEqual({
      ok: false,
      reason: 'ffmpeg printed no loudness summary',
    });
    expect(parse([]).result()).toEqual({ ok: false, reason: 'no audio could be decoded' });
  });

  it("keeps ffmpeg's first complaint without its prefix", () => {
    const parser = parse([
      '[mp3 @ 0x558fb2761000] Skipping 0 bytes of junk at 462.',
      '[mp3 @ 0x558fb2761000] Could not find codec parameters for stream 0: unspecified frame size',
      'Error configuring filter graph',
      'Conversion failed!',
    ]);
    expect(parser.error).toBe(
      'Could not find codec parameters for stream 0: unspecified frame size',
    );
  });

  it('reads a long log with constant state (an hour of frames)', () => {
    const parser = new AnalysisLogParser();
    for (const line of HEAD) parser.line(line);
    for (let i = 1; i <= 36_000; i++) parser.line(frame(i / 10, i % 600 === 0 ? -5 : -18));
    for (const line of [...tail(158_760_000), ...summary('-17.9', '1.2', '-2.0')]) {
      parser.line(line);
    }
    const result = parser.result();
    expect(result.ok && result.measurement).toMatchObject({
      loudness: -17.9,
      cueIn: 0,
      cueOut: 3600,
      fadePoint: 3600,
      duration: 3600,
    });
  });
});
