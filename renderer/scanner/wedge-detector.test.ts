import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WedgeDetector, type WedgeKey, type WedgeOptions } from './wedge-detector.std.ts';

/** What reached the page, in order: characters (given back or passed) and scans. */
type Delivery = { kind: 'text'; key: string; via: 'release' | 'pass' } | { kind: 'scan'; value: string };

interface Replay {
  deliveries: Delivery[];
  /** Each fed key's own fate, in feed order. */
  fates: string[];
  scans: string[];
  /** Every printable character that reached the page, in order. */
  text: string;
}

/**
 * Feeds `keys` as the listener does. With `timer` the detector is ticked at its deadline whenever
 * the next key comes later (a timer that fires); without, only the next key can end a burst.
 * Either way the trace ends with a final tick, as the listener's timer would.
 */
function replay(keys: WedgeKey[], options: Partial<WedgeOptions> = {}, timer = true): Replay {
  const detector = new WedgeDetector(options);
  const deliveries: Delivery[] = [];
  const fates: string[] = [];
  const settle = (settled: ReturnType<WedgeDetector['tick']>): void => {
    if (settled?.kind === 'scan') deliveries.push(settled);
    if (settled?.kind === 'release')
      deliveries.push(...settled.keys.map((key) => ({ kind: 'text', key, via: 'release' }) as const));
  };
  const fireTimer = (before: number): void => {
    const deadline = detector.deadline;
    if (deadline !== null && deadline < before) settle(detector.tick(deadline));
  };
  for (const input of keys) {
    if (timer) fireTimer(input.at);
    const { settled, key } = detector.feed(input);
    settle(settled);
    fates.push(key);
    if (key === 'pass' && isPrintable(input.key)) deliveries.push({ kind: 'text', key: input.key, via: 'pass' });
  }
  fireTimer(Number.POSITIVE_INFINITY);
  return {
    deliveries,
    fates,
    scans: deliveries.flatMap((d) => (d.kind === 'scan' ? [d.value] : [])),
    text: deliveries.map((d) => (d.kind === 'scan' ? d.value : d.key)).join(''),
  };
}

const isPrintable = (key: string): boolean => [...key].length === 1;

/** Deterministic jitter so a failing trace can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Keys typed one after another, `interval(i)` ms before key i (the first at `start`). */
function typed(keys: string[], interval: (i: number) => number, start = 1_000): WedgeKey[] {
  let at = start;
  return keys.map((key, i) => {
    if (i > 0) at += interval(i);
    return { key, at };
  });
}

const chars = (text: string): string[] => [...text];
const lastAt = (trace: WedgeKey[]): number => trace.at(-1)?.at ?? 0;
/** `text` followed by `ending` keys, all `interval` ms apart. */
const burst = (text: string, interval: number, ...ending: string[]): WedgeKey[] =>
  typed([...chars(text), ...ending], () => interval);

describe('scanners', () => {
  it.each([1, 10, 30])('a burst at %i ms per key ended by Enter is exactly one scan', (interval) => {
    const run = replay(burst('4006381333931', interval, 'Enter'));
    expect(run.scans).toEqual(['4006381333931']);
    expect(run.deliveries).toHaveLength(1);
    expect(run.fates.at(-1)).toBe('swallow');
  });

  it('is a scan when ended by Tab, and the Tab is swallowed', () => {
    const run = replay(burst('LOYAL-42', 5, 'Tab'));
    expect(run.deliveries).toEqual([{ kind: 'scan', value: 'LOYAL-42' }]);
    expect(run.fates.at(-1)).toBe('swallow');
  });

  it('is a scan when a quiet gap ends it without a terminator', () => {
    const detector = new WedgeDetector();
    for (const key of burst('12345', 8)) expect(detector.feed(key).key).toBe('hold');
    const deadline = detector.deadline ?? Number.NaN;
    expect(deadline).toBe(1_000 + 4 * 8 + 50);
    expect(detector.tick(deadline - 1)).toBeNull();
    expect(detector.tick(deadline)).toEqual({ kind: 'scan', value: '12345' });
    expect(detector.deadline).toBeNull();
  });

  it('reads the gap from the next key when no tick came in between', () => {
    const scan = burst('12345', 8);
    const run = replay([...scan, { key: 'x', at: lastAt(scan) + 60 }], {}, false);
    expect(run.deliveries).toEqual([
      { kind: 'scan', value: '12345' },
      { kind: 'text', key: 'x', via: 'release' },
    ]);
  });

  it('keeps scanning through the Shift a scanner presses for capitals', () => {
    const keys = typed(['A', 'Shift', 'B', '1', 'Shift', 'C', 'Enter'], () => 3);
    expect(replay(keys).scans).toEqual(['AB1C']);
  });

  it('takes a burst of exactly maxLength characters as a scan', () => {
    expect(replay(burst('123456', 2, 'Enter'), { maxLength: 6 }).scans).toEqual(['123456']);
  });
});

describe('people', () => {
  it.each([80, 120, 250])('typing at about %i ms per key, with jitter, is given back in order', (interval) => {
    const random = seededRandom(interval);
    const text = 'Jane.Doe@example.com 0612345678';
    const trace = typed([...chars(text), 'Enter'], () => interval * (0.75 + random() / 2));
    const run = replay(trace);
    expect(run.scans).toEqual([]);
    expect(run.text).toBe(text);
    expect(run.fates.at(-1)).toBe('pass');
  });

  it('gets a first key back as soon as the next key shows it was slow', () => {
    const detector = new WedgeDetector();
    expect(detector.feed({ key: 'a', at: 0 })).toEqual({ settled: null, key: 'hold' });
    expect(detector.feed({ key: 'b', at: 50 })).toEqual({ settled: { kind: 'release', keys: ['a'] }, key: 'hold' });
  });

  it('gets a last key back on the tick after the gap', () => {
    const detector = new WedgeDetector();
    detector.feed({ key: 'a', at: 0 });
    expect(detector.tick(49)).toBeNull();
    expect(detector.tick(50)).toEqual({ kind: 'release', keys: ['a'] });
  });

  it('gives back three fast characters before letting the Enter through: too short to be a scan', () => {
    const run = replay(burst('abc', 5, 'Enter'));
    expect(run.deliveries).toEqual(chars('abc').map((key) => ({ kind: 'text', key, via: 'release' })));
    expect(run.fates).toEqual(['hold', 'hold', 'hold', 'pass']);
  });

  it('gives back a burst averaging over maxAverageIntervalMs, which the option can widen', () => {
    const keys = burst('abcd', 40, 'Enter');
    expect(replay(keys).scans).toEqual([]);
    expect(replay(keys, { maxAverageIntervalMs: 40 }).scans).toEqual(['abcd']);
  });

  it('waits longer for the end of a burst when slower scanners are allowed', () => {
    expect(new WedgeDetector().options.endGapMs).toBe(50);
    expect(new WedgeDetector({ maxAverageIntervalMs: 55 }).options.endGapMs).toBe(75);
    // 55 ms apart: with the default 50 ms end gap every key would end the burst.
    expect(replay(burst('2710042000132', 55, 'Enter'), { maxAverageIntervalMs: 55 }).scans).toEqual(['2710042000132']);
    expect(replay(burst('2710042000132', 55, 'Enter'), { maxAverageIntervalMs: 55, endGapMs: 50 }).scans).toEqual([]);
  });

  it('typing fast, then a scan, gives the typing back and scans the code', () => {
    const person = typed(chars('hello'), () => 80);
    const scanner = typed([...chars('9780201379624'), 'Enter'], () => 4, lastAt(person) + 80);
    const run = replay([...person, ...scanner]);
    expect(run.deliveries).toEqual([
      ...chars('hello').map((key) => ({ kind: 'text', key, via: 'release' })),
      { kind: 'scan', value: '9780201379624' },
    ]);
  });

  it('typing right after a scan is given back, not glued to the scan', () => {
    const scanner = burst('9780201379624', 4, 'Enter');
    const person = typed(chars('hi'), () => 120, lastAt(scanner) + 10);
    const run = replay([...scanner, ...person]);
    expect(run.scans).toEqual(['9780201379624']);
    expect(run.text).toBe('9780201379624hi');
  });
});

describe('other keys while characters are held', () => {
  it.each(['Backspace', 'ArrowLeft', 'Delete', 'Escape'])('%s gives the held keys back first, then passes', (key) => {
    const detector = new WedgeDetector();
    for (const input of burst('1234', 2)) detector.feed(input);
    expect(detector.feed({ key, at: 1_007 })).toEqual({
      settled: { kind: 'release', keys: chars('1234') },
      key: 'pass',
    });
  });

  it('a key only a person makes (Ctrl/Alt/Meta, auto-repeat) gives the held keys back and passes', () => {
    const detector = new WedgeDetector();
    for (const input of burst('1234', 2)) detector.feed(input);
    expect(detector.feed({ key: 'v', at: 1_007, fromPerson: true })).toEqual({
      settled: { kind: 'release', keys: chars('1234') },
      key: 'pass',
    });
    expect(detector.feed({ key: 'c', at: 1_009, fromPerson: true })).toEqual({ settled: null, key: 'pass' });
  });

  it('a burst over maxLength is given back, the rest of it passes, and detection resumes after a gap', () => {
    const runaway = burst('abcdefgh', 2);
    const scan = typed([...chars('1234'), 'Enter'], () => 2, lastAt(runaway) + 50);
    const run = replay([...runaway, ...scan], { maxLength: 6 }, false);
    expect(run.deliveries.slice(0, 8)).toEqual([
      ...chars('abcdef').map((key) => ({ kind: 'text', key, via: 'release' })),
      ...chars('gh').map((key) => ({ kind: 'text', key, via: 'pass' })),
    ]);
    expect(run.fates.slice(6, 8)).toEqual(['pass', 'pass']);
    expect(run.scans).toEqual(['1234']);
  });
});

it('rejects options under which no burst could be judged', () => {
  expect(() => new WedgeDetector({ minLength: 1 })).toThrow(RangeError);
  expect(() => new WedgeDetector({ minLength: 4, maxLength: 3 })).toThrow(RangeError);
});

describe('properties', () => {
  const anyKey = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...chars('aB3-@ é'), '😀') },
    { weight: 1, arbitrary: fc.constantFrom('Enter', 'Tab', 'Shift', 'Backspace', 'ArrowLeft') },
  );
  /** About one key in ten is a shortcut or auto-repeat. */
  const fromPerson = fc.nat(9).map((n) => n === 0);
  const anyTrace = (interval: fc.Arbitrary<number>): fc.Arbitrary<WedgeKey[]> =>
    fc
      .array(fc.record({ key: anyKey, interval, fromPerson }), { maxLength: 60 })
      .map((keys) => {
        let at = 0;
        return keys.map(({ key, interval: gap, fromPerson }) => ({ key, at: (at += gap), fromPerson }));
      });
  const anyOptions = fc.record({
    minLength: fc.integer({ min: 2, max: 6 }),
    maxLength: fc.integer({ min: 6, max: 12 }),
  });
  const printableText = (keys: WedgeKey[]): string =>
    keys
      .map((k) => k.key)
      .filter(isPrintable)
      .join('');

  it('loses, duplicates and reorders no character, and holds none at the end', () => {
    fc.assert(
      fc.property(anyTrace(fc.integer({ min: 0, max: 120 })), anyOptions, fc.boolean(), (keys, options, timer) => {
        const run = replay(keys, options, timer);
        expect(run.text).toBe(printableText(keys));
        for (const value of run.scans) expect([...value].length).toBeGreaterThanOrEqual(options.minLength);
      }),
    );
  });

  it('never takes keys all 80 ms or more apart for a scan', () => {
    fc.assert(
      fc.property(anyTrace(fc.integer({ min: 80, max: 400 })), fc.boolean(), (keys, timer) => {
        expect(replay(keys, {}, timer).scans).toEqual([]);
      }),
    );
  });

  it('scans any code of 4 or more characters typed at 30 ms or faster and ended by Enter', () => {
    const code = fc.string({ unit: fc.constantFrom(...chars('0123456789ABCDEFabc-./:')), minLength: 4, maxLength: 64 });
    fc.assert(
      fc.property(code, fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 64, maxLength: 64 }), (value, gaps) => {
        const run = replay(typed([...chars(value), 'Enter'], (i) => gaps[i - 1] ?? 0));
        expect(run.deliveries).toEqual([{ kind: 'scan', value }]);
      }),
    );
  });
});
