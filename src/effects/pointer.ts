/** A particle option's dotted name (`trail.length`, `bursts[1].time`) as a JSON pointer suffix. */
import { pointerToken } from './errors.js';

export function optionPointer(option: string): string {
  const tokens: string[] = [];
  for (const part of option.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      tokens.push(part);
      continue;
    }
    if (m[1]) tokens.push(m[1]);
    for (const index of m[2]!.matchAll(/\[(\d+)\]/g)) tokens.push(index[1]!);
  }
  return tokens.map((t) => `/${pointerToken(t)}`).join('');
}

/** An error's message without the label the RHI puts before it (the pointer says where). */
export function plainMessage(e: Error): string {
  return e.message.replace(/^\[[^\]]*\]\s*/, '');
}
