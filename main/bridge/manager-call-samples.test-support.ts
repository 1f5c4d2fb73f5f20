import type { CallInput, ManagerCallName } from '../../common/contract.std.ts';

const uuid = '00000000-0000-4000-8000-000000000000';

/**
 * A payload the contract accepts for every manager call, so a test gets past validation to the
 * console gate. Typed over the manager table: a new manager call without a sample does not compile.
 */
export const MANAGER_CALL_SAMPLES: { [N in ManagerCallName]: CallInput<N> } = {
  listSerialPorts: {},
  setManagerPin: { pin: '2580' },
  getConsoleSettings: {},
  updateSettings: { values: { 'kiosk.modes': ['vouchers'] } },
  setSecret: { name: 'apiKey', value: 'fake-sample-secret' },
  removeSecret: { name: 'apiKey' },
  testConnection: { baseUrl: 'http://127.0.0.1:9/api' },
  connectWithSetupCard: { card: 'LKSETUP1.sample' },
  exportSettings: {},
  importSettings: { json: '{}' },
  adminListVouchers: { limit: 5 },
  adminFindVoucher: { code: 'KOFFIE24' },
  adminCreateVoucher: { promotion_uuid: uuid, code: 'SAMPLE01' },
  adminUpdateVoucher: { voucherUuid: uuid, status: 'DEACTIVATED' },
  adminListRewardAttributes: {},
  adminCreateRewardAttribute: { name: 'flavour', type: 'text' },
  getDiagnostics: {},
  exportDiagnostics: {},
  restartKiosk: {},
  quitKiosk: {},
  getXReport: {},
  listZReports: {},
  getZReport: { zNumber: 1 },
  closeShift: {},
  findRedemptions: { code: 'KOFFIE24' },
  reconcileOpenShift: {},
  printTestSlip: {},
  getLastSlip: {},
  listSlips: { proofCode: '4821730695' },
  reprintSlip: { proofCode: '4821730695' },
  exportLedgerCsv: {},
};
