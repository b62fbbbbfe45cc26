import { defineEntity, p } from '@mikro-orm/core';
import type { TokenApp } from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/**
 * The device flow's ticket: a plugin's client id. Margin's plugins register it with their first
 * poll, with the hash of the code they show (no user yet); the signed-in user confirms it (with
 * that code, when it has one). The plugin's first poll after that gets a token and uses the
 * ticket up; it expires unused, and is burned (no token for anyone) when a second account or
 * too many wrong codes try to confirm it.
 */
export const DeviceTicketSchema = defineEntity({
  name: 'DeviceTicket',
  tableName: 'device_ticket',
  properties: {
    clientId: p.string().length(128).primary(),
    app: p.string().length(16).$type<TokenApp>().nullable(),
    user: () => p.manyToOne(User).deleteRule('cascade').nullable(),
    /** The code the plugin shows, hashed with the client id; null for the seed's plugins, which show none. */
    userCodeHash: p.string().length(64).nullable(),
    codeMisses: p.smallint().default(0),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    burnedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class DeviceTicket extends DeviceTicketSchema.class {}
DeviceTicketSchema.setClass(DeviceTicket);
