import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from '../components/link.tsx';
import { useTitle } from '../hooks/use-title.ts';
import {
  GO_LIVE_TYPE,
  GoLiveSession,
  type GoLiveState,
  LevelMeter,
} from './live/go-live-session.ts';
import { LiveNow } from './live/live-now.tsx';

/** The microphones the browser offers; their names show once the page may use one. */
async function microphones(): Promise<MediaDeviceInfo[]> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.filter((device) => device.kind === 'audioinput');
}

function openMicrophone(deviceId: string): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({
    audio: {
      deviceId: deviceId ? { exact: deviceId } : undefined,
      // A DJ's mix or voice as it is: no call-style processing.
      echoCancellation: false,
      noiseSuppression: false,
      autoGainControl: false,
    },
  });
}

/** Why this browser cannot go live here, or null. */
function unsupported(): string | null {
  if (!window.isSecureContext || !navigator.mediaDevices) {
    return 'Browsers give pages the microphone only over HTTPS (or on localhost): open the station over HTTPS to go live from here.';
  }
  if (typeof MediaRecorder === 'undefined' || !MediaRecorder.isTypeSupported(GO_LIVE_TYPE)) {
    return 'This browser cannot record Opus in WebM: use Chrome, Edge or Firefox, or a source client (see the DJ page).';
  }
  return null;
}

function Meter({ meter }: { meter: LevelMeter | null }) {
  const [level, setLevel] = useState(-100);
  useEffect(() => {
    if (!meter) return;
    let frame = requestAnimationFrame(function tick() {
      setLevel(meter.level());
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [meter]);
  return (
    <div className="level">
      <meter
        className="level-meter"
        min={-60}
        max={0}
        low={-20}
        high={-6}
        optimum={-12}
        value={Math.max(-60, level)}
        aria-label="Microphone level"
      />
      <span className="muted small" data-testid="level">
        {level <= -100 ? 'silence' : `${Math.round(level)} dBFS`}
      </span>
    </div>
  );
}

/** Go live from the browser: choose a microphone, watch its level, start and stop. */
export default function GoLivePage() {
  useTitle('Go live');
  const problem = unsupported();
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState('');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [meter, setMeter] = useState<LevelMeter | null>(null);
  const [state, setState] = useState<GoLiveState>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const session = useRef<GoLiveSession | null>(null);
  const selectId = useId();

  const choose = useCallback(async (id: string) => {
    try {
      const next = await openMicrophone(id);
      setStream((previous) => {
        for (const track of previous?.getTracks() ?? []) track.stop();
        return next;
      });
      setDeviceId(id);
      setDevices(await microphones());
      setMessage(null);
    } catch (reason) {
      setMessage(`The microphone could not be opened: ${(reason as Error).message}`);
    }
  }, []);

  useEffect(() => {
    if (!problem) void choose('');
  }, [problem, choose]);

  useEffect(() => {
    if (!stream) return;
    const next = new LevelMeter(stream);
    setMeter(next);
    return () => next.close();
  }, [stream]);

  // Leaving the page ends the broadcast and frees the microphone.
  useEffect(
    () => () => {
      session.current?.stop();
      setStream((previous) => {
        for (const track of previous?.getTracks() ?? []) track.stop();
        return null;
      });
    },
    [],
  );

  const start = () => {
    if (!stream) return;
    meter?.resume();
    const next = new GoLiveSession(stream, {
      onState: (value, text) => {
        setState(value);
        setMessage(text ?? null);
      },
    });
    session.current = next;
    next.start();
  };
  const stop = () => session.current?.stop();
  const busy = state === 'connecting' || state === 'live';

  return (
    <section className="page narrow" aria-labelledby="go-live-heading">
      <div className="page-head">
        <h1 id="go-live-heading">Go live</h1>
        <Link to="/dj" className="button ghost">
          Connection settings
        </Link>
      </div>
      <div className="stack">
        {problem ? (
          <p className="notice" role="alert">
            {problem}
          </p>
        ) : (
          <section className="card" aria-labelledby="mic-heading">
            <h2 id="mic-heading">Microphone</h2>
            <div className="field">
              <label htmlFor={selectId}>Input</label>
              <select
                id={selectId}
                value={deviceId}
                disabled={busy}
                onChange={(e) => {
                  meter?.resume();
                  void choose(e.target.value);
                }}
              >
                {devices.length === 0 ? <option value="">Default microphone</option> : null}
                {devices.map((device, index) => (
                  <option key={device.deviceId || index} value={device.deviceId}>
                    {device.label || `Microphone ${index + 1}`}
                  </option>
                ))}
              </select>
            </div>
            <Meter meter={meter} />
            <div className="row-actions">
              {busy ? (
                <button type="button" className="button danger" onClick={stop}>
                  Stop
                </button>
              ) : (
                <button type="button" className="button primary" onClick={start} disabled={!stream}>
                  Start broadcasting
                </button>
              )}
              <span role="status" className="go-live-state" data-state={state}>
                {state === 'connecting' ? 'Connecting…' : state === 'live' ? 'Broadcasting' : ''}
              </span>
            </div>
            {message ? <p className="muted">{message}</p> : null}
            <p className="muted small">
              The AutoDJ fades out as your audio arrives and comes back when you stop. Another DJ on
              air first? You wait, connected, and take over when they leave.
            </p>
          </section>
        )}
        <LiveNow />
      </div>
    </section>
  );
}
