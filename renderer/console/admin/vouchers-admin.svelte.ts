import type { BridgeResult, CallInput, KioskApi } from '../../../common/contract.std.ts';
import type { AdminVoucher } from '../../../common/manager-views.std.ts';
import type { ConsoleCall } from '../console-link.svelte.ts';
import { contactsOf, promotionsOf, remember, type Choice } from './choices.std.ts';

export type VouchersAdminBridge = Pick<
  KioskApi,
  'adminListVouchers' | 'adminFindVoucher' | 'adminCreateVoucher' | 'adminUpdateVoucher' | 'adminListRewardAttributes' | 'adminCreateRewardAttribute'
>;

/**
 * The platform's vouchers and reward attributes, as the admin tabs call them (each view's AdminRequest
 * sends the call), and the promotions and contacts to pick from: those of every voucher seen.
 */
export class VouchersAdmin {
  promotions = $state<Choice[]>([]);
  contacts = $state<Choice[]>([]);
  readonly #bridge: VouchersAdminBridge;
  readonly #call: ConsoleCall;

  constructor({ bridge, call }: { bridge: VouchersAdminBridge; call: ConsoleCall }) {
    this.#bridge = bridge;
    this.#call = call;
  }

  readonly list = (query: CallInput<'adminListVouchers'>) => this.#seeing(this.#bridge.adminListVouchers(query), (page) => page.vouchers);
  readonly find = (code: string) => this.#seeing(this.#bridge.adminFindVoucher({ code }), (voucher) => [voucher]);
  readonly create = (body: CallInput<'adminCreateVoucher'>) => this.#seeing(this.#bridge.adminCreateVoucher(body), (voucher) => [voucher]);
  readonly update = (input: CallInput<'adminUpdateVoucher'>) => this.#bridge.adminUpdateVoucher(input);
  readonly listRewardAttributes = () => this.#bridge.adminListRewardAttributes();
  readonly createRewardAttribute = (body: CallInput<'adminCreateRewardAttribute'>) => this.#bridge.adminCreateRewardAttribute(body);

  /** The create answer lacks the redemption counts: the voucher as found, or as created should the find fail. */
  async afterCreate(voucher: AdminVoucher): Promise<AdminVoucher> {
    const found = await this.#call(() => this.find(voucher.code));
    return found.ok ? found.value : voucher;
  }

  /** Every voucher an answer shows adds its promotion and contact to the choices. */
  async #seeing<T>(answer: Promise<BridgeResult<T>>, vouchersOf: (value: T) => AdminVoucher[]): Promise<BridgeResult<T>> {
    const result = await answer;
    if (result.ok) {
      const vouchers = vouchersOf(result.value);
      this.promotions = remember(this.promotions, promotionsOf(vouchers));
      this.contacts = remember(this.contacts, contactsOf(vouchers));
    }
    return result;
  }
}
