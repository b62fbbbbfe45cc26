import { AuthBindingSchema } from './auth-binding.entity.ts';
import { FolderSchema } from './folder.entity.ts';
import { NoteSchema } from './note.entity.ts';
import { PageSchema } from './page.entity.ts';
import { PageContentSchema } from './page-content.entity.ts';
import { SessionSchema } from './session.entity.ts';
import { UserSchema } from './user.entity.ts';
import { VerificationCodeSchema } from './verification-code.entity.ts';

export { AuthBinding } from './auth-binding.entity.ts';
export { Folder } from './folder.entity.ts';
export { Note } from './note.entity.ts';
export { Page } from './page.entity.ts';
export { PageContent } from './page-content.entity.ts';
export { Session } from './session.entity.ts';
export { User } from './user.entity.ts';
export { VerificationCode } from './verification-code.entity.ts';

/** Every entity schema, registered with the ORM in one place. */
export const ENTITIES = [
  UserSchema,
  SessionSchema,
  VerificationCodeSchema,
  AuthBindingSchema,
  PageSchema,
  PageContentSchema,
  NoteSchema,
  FolderSchema,
];
