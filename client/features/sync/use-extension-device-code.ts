import { useSyncExternalStore } from 'react';
import { DEVICE_CODE_MARK } from '../../../src/rules/device-flow.ts';
import { subscribeToExtensionMarks } from '../../lib/extension-marks.ts';

const subscribe = (onChange: () => void) => subscribeToExtensionMarks(onChange, [DEVICE_CODE_MARK]);
const snapshot = () => document.documentElement.getAttribute(DEVICE_CODE_MARK) ?? '';

/**
 * The code the browser extension wrote on the confirmation page it opened ('' elsewhere),
 * followed as it writes it: its content script runs once the page has loaded.
 */
export function useExtensionDeviceCode(): string {
  return useSyncExternalStore(subscribe, snapshot);
}
