import { zSystemInfo } from '../../src/schemas/system.ts';
import { systemInfo } from '../domain/system/system.service.ts';
import { publicProcedure, router } from './init.ts';

export const systemRouter = router({
  info: publicProcedure.output(zSystemInfo).query(({ ctx }) => systemInfo(ctx.config, ctx.user)),
});
