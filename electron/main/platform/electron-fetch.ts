import { net } from 'electron';
import type { FetchLike } from '../services/relay/relay-client';

/** HTTP from main through Chromium's network stack: the system proxy and certificate store. */
export const electronFetch: FetchLike = (url, init) => net.fetch(url, init);
