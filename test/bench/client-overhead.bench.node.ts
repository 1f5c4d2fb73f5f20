import { sample, timed } from './measure.std.ts';
import { spawnSandbox } from './sandbox-process.node.ts';
import { ms, ratio, summarize, type BenchReport } from './stats.std.ts';

const TARGET_MS = 1;

/**
 * What the typed client adds per call (credentials, request building, timeout signal, JSON
 * parsing, schema check) over a bare fetch of the same URL with the same headers. Find Voucher
 * writes nothing, so no fsync muddies the figures. Pairs alternate which call goes first, so
 * drift and connection reuse favour neither.
 */
export async function benchClientOverhead(counts = { warmup: 50, iterations: 500 }): Promise<BenchReport> {
  const sandbox = await spawnSandbox();
  try {
    const { client, manifest } = sandbox;
    const code = manifest.vouchers[0]!.code;
    // Built as the client builds it, so both fetch the very same URL.
    const url = new URL(`${sandbox.baseUrl}/vouchers/find`);
    url.searchParams.set('code', code);
    const headers = { Accept: 'application/json', Authorization: `Bearer ${manifest.credentials.api_key}` };
    const bareFetch = async () => {
      const response = await fetch(url, { headers });
      const text = await response.text();
      if (!response.ok) throw new Error(`Find Voucher answered ${response.status}: ${text}`);
    };
    const clientCall = () => client.findVoucher({ code });

    const pairs = await sample(counts, async (index) => {
      const clientFirst = index % 2 === 0;
      const [first] = await timed<unknown>(clientFirst ? clientCall : bareFetch);
      const [second] = await timed<unknown>(clientFirst ? bareFetch : clientCall);
      return clientFirst ? { client: first, fetch: second } : { client: second, fetch: first };
    });

    const viaClient = summarize(pairs.map((pair) => pair.client));
    const viaFetch = summarize(pairs.map((pair) => pair.fetch));
    const pairedDifference = summarize(pairs.map((pair) => pair.client - pair.fetch));
    const differenceOfP50s = viaClient.p50 - viaFetch.p50;
    const verdict = (overhead: number) => (overhead <= TARGET_MS ? 'met' : 'NOT met');
    return {
      tables: [
        {
          title: `Client overhead, Find Voucher: ${counts.iterations} interleaved pairs after ${counts.warmup} warm-up`,
          columns: ['call', 'n', 'p50', 'p99', 'p50 ÷ fetch p50'],
          rows: [
            ['bare fetch + text()', String(viaFetch.n), ms(viaFetch.p50), ms(viaFetch.p99), ratio(1)],
            ['typed client findVoucher', String(viaClient.n), ms(viaClient.p50), ms(viaClient.p99), ratio(viaClient.p50 / viaFetch.p50)],
          ],
        },
        {
          title: `Client overhead per call (target ≤ ${TARGET_MS} ms at p50)`,
          columns: ['measure', 'overhead', 'target'],
          rows: [
            ['p50 client − p50 fetch', ms(differenceOfP50s), verdict(differenceOfP50s)],
            ['p50 of paired (client − fetch)', ms(pairedDifference.p50), verdict(pairedDifference.p50)],
          ],
          notes: [`p99 of paired differences: ${ms(pairedDifference.p99)}`],
        },
      ],
      figures: {
        ...counts,
        unit: 'ms',
        bareFetch: viaFetch,
        client: viaClient,
        pairedDifference,
        differenceOfP50s,
        clientToFetchP50: viaClient.p50 / viaFetch.p50,
        targetMs: TARGET_MS,
        targetMet: differenceOfP50s <= TARGET_MS && pairedDifference.p50 <= TARGET_MS,
      },
    };
  } finally {
    await sandbox.close();
  }
}
