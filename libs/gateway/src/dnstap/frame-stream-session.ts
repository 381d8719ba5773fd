import { CONTROL, FrameStreamError, controlName, encodeControlFrame, type Frame } from './frame-streams';

export const DNSTAP_CONTENT_TYPE = 'protobuf:dnstap.Dnstap';

export type SessionStep =
  /** Bytes to write back to the sender now (ACCEPT). */
  | { kind: 'reply'; bytes: Buffer }
  | { kind: 'payload'; payload: Buffer }
  | { kind: 'oversized'; length: number }
  /** The sender stopped: send `finish` (bidirectional streams) once the data is handled, then close. */
  | { kind: 'stopped'; finish?: Buffer };

type State = 'opening' | 'ready' | 'streaming' | 'stopped';

/**
 * The receiving side of one Frame Streams connection, as a state machine over decoded frames: bidirectional
 * (READY → our ACCEPT → START … STOP → our FINISH) or unidirectional (START … STOP, no replies). Only the dnstap
 * content type is accepted. Protocol violations throw {@link FrameStreamError}.
 */
export class FrameStreamSession {
  private state: State = 'opening';
  private bidirectional = false;

  get started(): boolean {
    return this.state === 'streaming';
  }

  get finished(): boolean {
    return this.state === 'stopped';
  }

  step(frame: Frame): SessionStep[] {
    if (this.state === 'stopped') throw new FrameStreamError('frame_after_stop', 'a frame arrived after STOP');
    if (frame.kind !== 'control') {
      if (this.state !== 'streaming') throw new FrameStreamError('data_before_start', 'a data frame arrived before START');
      return [frame.kind === 'data' ? { kind: 'payload', payload: frame.payload } : frame];
    }
    switch (frame.type) {
      case CONTROL.READY:
        if (this.state !== 'opening') break;
        if (!frame.contentTypes.includes(DNSTAP_CONTENT_TYPE)) {
          throw new FrameStreamError('content_type_mismatch', `READY offers ${describe(frame.contentTypes)}, not ${DNSTAP_CONTENT_TYPE}`);
        }
        this.state = 'ready';
        this.bidirectional = true;
        return [{ kind: 'reply', bytes: encodeControlFrame(CONTROL.ACCEPT, [DNSTAP_CONTENT_TYPE]) }];
      case CONTROL.START:
        if (this.state !== 'opening' && this.state !== 'ready') break;
        if (frame.contentTypes.length > 0 && frame.contentTypes[0] !== DNSTAP_CONTENT_TYPE) {
          throw new FrameStreamError('content_type_mismatch', `START names ${describe(frame.contentTypes)}, not ${DNSTAP_CONTENT_TYPE}`);
        }
        this.state = 'streaming';
        return [];
      case CONTROL.STOP:
        if (this.state !== 'streaming') break;
        this.state = 'stopped';
        return [this.bidirectional ? { kind: 'stopped', finish: encodeControlFrame(CONTROL.FINISH) } : { kind: 'stopped' }];
    }
    throw new FrameStreamError('unexpected_control_frame', `${controlName(frame.type)} is not expected ${this.state === 'opening' ? 'first' : `while ${this.state}`}`);
  }
}

function describe(contentTypes: string[]): string {
  return contentTypes.length === 0 ? 'no content type' : contentTypes.map((c) => JSON.stringify(c.slice(0, 64))).join(', ');
}
