import { SessionSchema } from './session.entity.ts';
import { UserSchema } from './user.entity.ts';

export { Session } from './session.entity.ts';
export { User } from './user.entity.ts';

/** Every entity schema, registered with the ORM in one place. */
export const ENTITIES = [UserSchema, SessionSchema];
