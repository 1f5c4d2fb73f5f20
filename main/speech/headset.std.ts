import { z } from 'zod';

/** What `pactl --format=json list sinks` says of each output: its ports, and the one in use. */
const Sinks = z.array(
  z.object({
    name: z.string(),
    active_port: z.string().nullable().optional(),
    ports: z.array(z.object({ name: z.string(), type: z.string().optional(), availability: z.string().optional() })).default([]),
  }),
);

const HEADPHONE_PORT = /headphone|headset/i;

/**
 * Whether `defaultSink`'s active port is a headset or headphones that are plugged in (PulseAudio,
 * and PipeWire's pulse server, report both the port's type and whether something is in its jack).
 * Anything it cannot read counts as a speaker: private data is then not said.
 */
export function headphonesInUse(sinksJson: string, defaultSink: string): boolean {
  let sinks: z.infer<typeof Sinks>;
  try {
    sinks = Sinks.parse(JSON.parse(sinksJson));
  } catch {
    return false;
  }
  const sink = sinks.find((candidate) => candidate.name === defaultSink);
  const port = sink?.ports.find((candidate) => candidate.name === sink.active_port);
  if (!port || port.availability === 'not available') return false;
  return HEADPHONE_PORT.test(port.type ?? '') || HEADPHONE_PORT.test(port.name);
}
