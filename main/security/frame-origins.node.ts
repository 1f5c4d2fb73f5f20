import { z } from 'zod';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurablySync } from '../../base/durable-file.node.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import { isLoopbackUrl } from '../../common/config-schema.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';

/** Far above 20 origins for each of a few platforms. */
const MAX_FILE_BYTES = 256 * 1024;

/** The origin of a page the kiosk may frame at all (https, or http on this computer: the sandbox), else null. */
function frameableOrigin(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackUrl(parsed)) ? parsed.origin : null;
}
/** Per API origin, the portal-page origins its portal sessions came from. */
const Learned = z.record(z.string(), z.array(z.string()).max(20));

export interface FrameOriginsOptions {
  dataDir: string;
  config: ConfigStore;
  /** The loyalty platform's API origin (demo: the embedded sandbox's). */
  apiOrigin: () => string | null;
  /** Portal origins known before any session names them (demo: the embedded sandbox's page server). */
  knownPortalOrigins?: () => readonly string[];
  logger: Logger;
}

/**
 * The origins the kiosk may frame: the platform's own, and where its hosted portal pages live.
 * With `portal.allowedOrigins` set, a portal page must come from one of those; left empty, the
 * origins the platform returns for this shop's sessions are taken, and remembered (per platform)
 * so the next start's CSP lists them. Both hosts build their CSP's frame-src from `list()`.
 */
export class FrameOrigins {
  readonly #file: string;
  #learned: z.infer<typeof Learned>;

  constructor(private readonly options: FrameOriginsOptions) {
    this.#file = dataFiles(options.dataDir).portalOrigins;
    this.#learned = this.#read();
  }

  list(): string[] {
    const api = this.options.apiOrigin();
    const configured = this.options.config.get().portal.allowedOrigins;
    const known = this.options.knownPortalOrigins?.() ?? [];
    const portal = configured.length > 0 ? configured : [...known, ...((api && this.#learned[api]) || [])];
    return [...new Set([...(api ? [api] : []), ...portal])];
  }

  /** Whether a portal session's page (its url) may be framed; a refusal is logged, a new platform origin learned. */
  admit(url: string): boolean {
    if (frameableOrigin(url) === null) {
      // javascript:, data: and the like have the origin "null": never framed, never learned.
      this.options.logger.error('portal session page refused: only https pages (http on this computer) are framed', { event: 'portal.page_refused', scheme: URL.canParse(url) ? new URL(url).protocol : null });
      return false;
    }
    const origin = new URL(url).origin;
    const api = this.options.apiOrigin();
    const configured = this.options.config.get().portal.allowedOrigins;
    if (origin === api || this.list().includes(origin)) return true;
    if (configured.length > 0 || !api) {
      this.options.logger.error('portal session page refused: its origin is not in portal.allowedOrigins', { event: 'portal.page_refused', origin, allowed: this.list() });
      return false;
    }
    this.#learn(api, origin);
    return true;
  }

  #learn(api: string, origin: string) {
    this.#learned = { ...this.#learned, [api]: [...(this.#learned[api] ?? []), origin].slice(-20) };
    try {
      writeFileDurablySync(this.#file, `${JSON.stringify(this.#learned, null, 2)}\n`);
    } catch (error) {
      // Still allowed for this run: the next start learns it again from the next session.
      this.options.logger.warn('portal origins could not be saved', { error: String(error) });
    }
    this.options.logger.info('portal pages framed from a new origin', { origin });
  }

  /**
   * What earlier runs learned, each origin checked again as it is learned: the file may be older
   * than that check, or written by another hand, and what it holds goes into the CSP header.
   */
  #read(): z.infer<typeof Learned> {
    let learned: z.infer<typeof Learned>;
    try {
      const read = readBoundedFile(this.#file, MAX_FILE_BYTES);
      if (read.kind === 'missing') return {};
      if (read.kind === 'refused') throw new Error(`the file is ${read.reason}`);
      learned = Learned.parse(JSON.parse(read.text));
    } catch (error) {
      this.options.logger.warn('portal origins unreadable; learning them afresh', { error: String(error) });
      return {};
    }
    const kept = Object.fromEntries(Object.entries(learned).map(([api, origins]) => [api, origins.filter((origin) => frameableOrigin(origin) === origin)]));
    const dropped = Object.values(learned).flat().length - Object.values(kept).flat().length;
    // Only how many: an entry that is no origin may be any text.
    if (dropped > 0) this.options.logger.warn('portal origins that are no frameable origin dropped', { event: 'portal.origins_dropped', dropped });
    return kept;
  }
}
