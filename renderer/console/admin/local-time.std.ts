/**
 * The manager types dates in the kiosk's local time (`<input type="datetime-local">`); the platform
 * stores UTC. These convert between the two, in the time zone the kiosk runs in.
 */

const LOCAL_INPUT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?$/;

/**
 * A datetime-local value (`2030-03-01T09:30`) as ISO 8601 UTC with whole seconds
 * (`2030-03-01T08:30:00Z`); null when it is not a real date and time. A time that a daylight-saving
 * change skips (02:30 on the spring-forward night) reads as the same wall-clock distance past the
 * gap, a time that occurs twice as its first occurrence: what the browser itself does.
 */
export function localInputToUtc(value: string): string | null {
  const match = LOCAL_INPUT.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number, number, number, number, number, number,
  ];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const moment = new Date(year, month - 1, day, hour, minute, second);
  // Date rolls 2030-02-30 over into March: such a day does not exist.
  if (moment.getFullYear() !== year || moment.getMonth() !== month - 1 || moment.getDate() !== day) return null;
  return moment.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An ISO 8601 timestamp (any offset) as a datetime-local value in local time; '' when unreadable. */
export function utcToLocalInput(iso: string): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return '';
  const two = (part: number) => String(part).padStart(2, '0');
  const date = `${String(moment.getFullYear()).padStart(4, '0')}-${two(moment.getMonth() + 1)}-${two(moment.getDate())}`;
  const seconds = moment.getSeconds() === 0 ? '' : `:${two(moment.getSeconds())}`;
  return `${date}T${two(moment.getHours())}:${two(moment.getMinutes())}${seconds}`;
}

/**
 * A timestamp for reading, in local time and the manager's language; the text itself when
 * unreadable. `short` (numeric date) is for tables, where a column must stay narrow.
 */
export function formatLocal(iso: string, locale: string, dateStyle: 'medium' | 'short' = 'medium'): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle, timeStyle: 'short' }).format(moment);
}

/** The kiosk's time zone by name (`Europe/Amsterdam`), shown so nobody guesses what "local" means. */
export function localZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
