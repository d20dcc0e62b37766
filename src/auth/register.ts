import type { Services } from '../services';

/** Sign-in: token, platform, credentials file, the signed-in indicator. */
export function registerAuth(services: Services): void {
  void services.session.reload();
}
