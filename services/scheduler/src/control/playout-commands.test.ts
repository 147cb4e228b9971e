import { describe, expect, it } from '@jest/globals';
import { renderAnswer } from './answer.ts';
import { playoutStatusLines, registerPlayoutCommands } from './playout-commands.ts';
import { CommandRegistry } from './registry.ts';

describe('playout.status', () => {
  it('answers key: value lines, none when there is no fallback', () => {
    expect(
      playoutStatusLines({
        state: 'playing',
        onAir: 'track',
        fallback: null,
        deadAirSkips: 2,
        deadAirSeconds: 10,
      }),
    ).toEqual([
      'state: playing',
      'on_air: track',
      'fallback: none',
      'fallback_reason: none',
      'dead_air_skips: 2',
      'dead_air_seconds: 10',
    ]);
  });

  it('says why the fallback plays', async () => {
    const registry = new CommandRegistry();
    registerPlayoutCommands(registry, () => ({
      state: 'playing',
      onAir: 'fallback',
      fallback: { reason: 'empty-library', message: 'the music folder is empty' },
      deadAirSkips: 0,
      deadAirSeconds: 10,
    }));
    const answer = renderAnswer((await registry.get('playout.status')?.handler('')) ?? '');
    expect(answer).toContain('on_air: fallback\r\nfallback: the music folder is empty\r\n');
    expect(answer).toContain('fallback_reason: empty-library');
  });
});
