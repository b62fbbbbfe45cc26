import { defineEntity, p } from '@mikro-orm/core';
import type { TokenApp } from '../../../src/schemas/sync.ts';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/**
 * The device flow's ticket: a plugin's client id the signed-in user confirmed. The plugin's
 * first poll after that gets a token and uses the ticket up; it expires unused.
 */
export const DeviceTicketSchema = defineEntity({
  name: 'DeviceTicket',
  tableName: 'device_ticket',
  properties: {
    clientId: p.string().length(128).primary(),
    app: p.string().length(16).$type<TokenApp>(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => clock.now()),
  },
});

export class DeviceTicket extends DeviceTicketSchema.class {}
DeviceTicketSchema.setClass(DeviceTicket);
