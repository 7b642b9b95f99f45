import { WalletCheckError, type WalletCheckCode } from '@identity-broker/eu-wallet';

/** Awaits a promise that must be refused with a WalletCheckError of `code`, and returns that error. */
export async function refusedWith(promise: Promise<unknown>, code: WalletCheckCode): Promise<WalletCheckError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletCheckError);
  expect((error as WalletCheckError).code).toBe(code);
  return error as WalletCheckError;
}
