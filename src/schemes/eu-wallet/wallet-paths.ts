/** Everything wallets call lives under this prefix. */
export const WALLET_API_PREFIX = '/wallet/v1/';

/** Where wallets reach the service (request_uri and response_uri); outside the engine's and the broker pages' paths. */
export const WALLET_PATHS = {
  requests: '/wallet/v1/requests',
  responses: '/wallet/v1/responses',
  /** customer-test only: the status list of the test PIDs. */
  testStatusList: '/wallet/v1/test-status-lists/1',
} as const;

/** Which link a wallet came through: the same-device button is sent back with a response_code; the QR code is not. */
export type WalletFlow = 'same_device' | 'cross_device';
