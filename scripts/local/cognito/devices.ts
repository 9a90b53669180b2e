/**
 * Remembered devices of the local user pool (cognito-local has no device targets at all): the device records the
 * proxy keeps in `<dataDir>/devices.json` as `{ [Username]: LocalDevice[] }`.
 *
 * Model (Cognito developer guide, "Working with user devices in your user pool"; API reference ConfirmDevice,
 * ListDevices, UpdateDeviceStatus, ForgetDevice, GetDevice): with device tracking on, each successful sign-in
 * without a known device key returns `NewDeviceMetadata` (`DeviceKey` = `<region>_<uuid>`, `DeviceGroupKey`); the
 * client confirms it (ConfirmDevice: name + `DeviceSecretVerifierConfig`); with `DeviceOnlyRememberedOnUserPrompt`
 * it stays `not_remembered` until UpdateDeviceStatus says `remembered`. Dates in the API are epoch SECONDS.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One device of a user, as stored (dates ISO-8601 UTC). */
export interface LocalDevice {
  DeviceKey: string;
  DeviceGroupKey: string;
  /** `null` until ConfirmDevice. */
  DeviceName: string | null;
  /** Base64 salt and verifier from ConfirmDevice (kept for a future DEVICE_SRP_AUTH). */
  DeviceSecretVerifierConfig: { Salt?: string; PasswordVerifier?: string } | null;
  DeviceRememberedStatus: 'remembered' | 'not_remembered';
  CreateDate: string;
  LastModifiedDate: string;
  LastAuthenticatedDate: string;
}

/** The API shape of a device (ListDevices / GetDevice `DeviceType`). */
export interface DeviceType {
  DeviceKey: string;
  DeviceAttributes: { Name: string; Value: string }[];
  DeviceCreateDate: number;
  DeviceLastModifiedDate: number;
  DeviceLastAuthenticatedDate: number;
}

type DeviceFile = Record<string, LocalDevice[]>;

const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** Converts a stored device to the API's `DeviceType` (attributes `device_name`, `device_status`, `last_ip_used`). */
export function toDeviceType(d: LocalDevice): DeviceType {
  const attributes = [
    ...(d.DeviceName ? [{ Name: 'device_name', Value: d.DeviceName }] : []),
    { Name: 'device_status', Value: d.DeviceRememberedStatus === 'remembered' ? 'valid' : 'not_remembered' },
    { Name: 'last_ip_used', Value: '127.0.0.1' },
  ];
  return {
    DeviceKey: d.DeviceKey,
    DeviceAttributes: attributes,
    DeviceCreateDate: seconds(d.CreateDate),
    DeviceLastModifiedDate: seconds(d.LastModifiedDate),
    DeviceLastAuthenticatedDate: seconds(d.LastAuthenticatedDate),
  };
}

/** Reads and writes `<dataDir>/devices.json`; every method re-reads the file (several proxies never share it). */
export class DeviceStore {
  private readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, private readonly region: string) {
    this.file = join(dataDir, 'devices.json');
  }

  private async read(): Promise<DeviceFile> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as DeviceFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
  }

  /** Serialises read-modify-write cycles so concurrent requests do not lose updates. */
  private update<T>(change: (devices: DeviceFile) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const devices = await this.read();
      const result = change(devices);
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(devices, null, 2));
      await rename(tmp, this.file);
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The user's devices (confirmed or not). */
  async list(username: string): Promise<LocalDevice[]> {
    return (await this.read())[username] ?? [];
  }

  /** The user's device with that key, or null. */
  async find(username: string, deviceKey: unknown): Promise<LocalDevice | null> {
    return (await this.list(username)).find((d) => d.DeviceKey === deviceKey) ?? null;
  }

  /** Creates an unconfirmed device for a sign-in; returns the `NewDeviceMetadata` to hand the client. */
  issue(username: string): Promise<{ DeviceKey: string; DeviceGroupKey: string }> {
    const now = new Date().toISOString();
    const device: LocalDevice = {
      DeviceKey: `${this.region}_${randomUUID()}`,
      DeviceGroupKey: `-${randomUUID().replace(/-/g, '').slice(0, 9)}`,
      DeviceName: null,
      DeviceSecretVerifierConfig: null,
      DeviceRememberedStatus: 'not_remembered',
      CreateDate: now,
      LastModifiedDate: now,
      LastAuthenticatedDate: now,
    };
    return this.update((all) => {
      all[username] = [...(all[username] ?? []), device];
      return { DeviceKey: device.DeviceKey, DeviceGroupKey: device.DeviceGroupKey };
    });
  }

  /**
   * Applies `change` to the user's device `deviceKey` and stamps LastModifiedDate.
   * @returns the updated device, or null when the user has no such device.
   */
  modify(username: string, deviceKey: unknown, change: (d: LocalDevice) => void): Promise<LocalDevice | null> {
    return this.update((all) => {
      const device = (all[username] ?? []).find((d) => d.DeviceKey === deviceKey);
      if (!device) return null;
      change(device);
      device.LastModifiedDate = new Date().toISOString();
      return { ...device };
    });
  }

  /** Removes the device; returns false when the user has no such device. */
  forget(username: string, deviceKey: unknown): Promise<boolean> {
    return this.update((all) => {
      const before = all[username] ?? [];
      all[username] = before.filter((d) => d.DeviceKey !== deviceKey);
      return all[username].length !== before.length;
    });
  }
}
