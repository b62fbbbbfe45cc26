// `npm run admin -- <command>`: the operator's membership tools. Every action is written to the
// membership log (membership_event) with the operator's name, and printed.
//
//   grant  <email|account id> <days> [--tier pro|superPro] [--remark text]
//   revoke <email|account id> <days> [--remark text]
//   orders <email|account id>
//   refund <order id> [--remark text]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { AppError } from '../../src/errors.ts';
import { loadConfig } from '../config.ts';
import { resolveDatabase } from '../db/connect.ts';
import { createOrm } from '../db/orm.ts';
import { adminGrant, adminOrders, adminRefund, adminRevoke } from '../domain/membership/admin.ts';

const USAGE = `usage: npm run admin -- grant <email|account id> <days> [--tier pro|superPro] [--remark text]
       npm run admin -- revoke <email|account id> <days> [--remark text]
       npm run admin -- orders <email|account id>
       npm run admin -- refund <order id> [--remark text]`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { tier: { type: 'string', default: 'pro' }, remark: { type: 'string' } },
});
const [command, target, daysText] = positionals;
if (!command || !target) fail(USAGE);
const days = Number(daysText);
const needsDays = command === 'grant' || command === 'revoke';
if (needsDays && !(Number.isInteger(days) && days > 0 && days <= 36_600))
  fail('days: a whole number from 1 to 36600');
if (values.tier !== 'pro' && values.tier !== 'superPro') fail('--tier: pro or superPro');
const tier = values.tier;
const remark = values.remark ?? null;
const actor = `admin:cli:${os.userInfo().username}`.slice(0, 64);

const config = loadConfig();
// Beside a running app on the embedded database, its server is used (and left running).
const database = await resolveDatabase(config, { besideApp: true });
const orm = await createOrm(database.url);
const em = orm.em.fork();
const currency = config.membershipConfig.prices[config.region].currency;
const expiry = (date: Date | null | undefined) => (date ? date.toISOString() : 'none');
try {
  switch (command) {
    case 'grant': {
      const { order, user } = await adminGrant(em, { handle: target, days, tier, currency, remark, actor });
      console.log(
        `granted ${days} ${tier} days to ${user.accountId} (order ${order.id}); PRO until ${expiry(user.proExpiresAt)}`,
      );
      break;
    }
    case 'revoke': {
      const after = await adminRevoke(em, { handle: target, days, remark, actor });
      console.log(
        after ? `revoked ${days} days; PRO until ${expiry(after.proExpiresAt)}` : 'no PRO time to revoke',
      );
      break;
    }
    case 'orders': {
      const orders = await adminOrders(em, target);
      if (orders.length === 0) console.log('no orders');
      for (const o of orders) {
        const price = `${(o.amount / 100).toFixed(2)} ${o.currency}`;
        console.log(
          [
            o.id,
            o.state,
            o.source,
            price,
            `${o.proDays} days`,
            o.createdAt.toISOString(),
            o.remark ?? '',
          ].join('\t'),
        );
      }
      break;
    }
    case 'refund': {
      const moved = await adminRefund(em, { orderId: target, remark, actor });
      console.log(
        moved
          ? `order ${target} refunded`
          : `order ${target} was not paid or is already refunded/closed: unchanged`,
      );
      break;
    }
    default:
      fail(USAGE);
  }
} catch (error) {
  if (error instanceof AppError && error.code === 'NOT_FOUND') fail(`not found: ${target}`);
  throw error;
} finally {
  await orm.close();
  await database.stop();
}
