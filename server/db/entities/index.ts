import { ApiTokenSchema } from './api-token.entity.ts';
import { AuthBindingSchema } from './auth-binding.entity.ts';
import { DeviceTicketSchema } from './device-ticket.entity.ts';
import { FeedbackSchema } from './feedback.entity.ts';
import { FolderSchema } from './folder.entity.ts';
import { HighlightSchema } from './highlight.entity.ts';
import { IntegrationSchema } from './integration.entity.ts';
import { MembershipEventSchema } from './membership-event.entity.ts';
import { NoteSchema } from './note.entity.ts';
import { NoteContentSchema } from './note-content.entity.ts';
import { OrderSchema } from './order.entity.ts';
import { SessionSchema } from './session.entity.ts';
import { StoredFileSchema } from './stored-file.entity.ts';
import { SyncTokenSchema } from './sync-token.entity.ts';
import { UploadSchema } from './upload.entity.ts';
import { UserSchema } from './user.entity.ts';
import { UserSettingSchema } from './user-setting.entity.ts';
import { VerificationCodeSchema } from './verification-code.entity.ts';
import { WebhookDeliverySchema } from './webhook-delivery.entity.ts';
import { WebhookEndpointSchema } from './webhook-endpoint.entity.ts';

export { ApiToken } from './api-token.entity.ts';
export { AuthBinding } from './auth-binding.entity.ts';
export { DeviceTicket } from './device-ticket.entity.ts';
export { Feedback } from './feedback.entity.ts';
export { Folder } from './folder.entity.ts';
export { Highlight } from './highlight.entity.ts';
export { Integration } from './integration.entity.ts';
export { MembershipEvent } from './membership-event.entity.ts';
export { Note } from './note.entity.ts';
export { NoteContent } from './note-content.entity.ts';
export { Order } from './order.entity.ts';
export { Session } from './session.entity.ts';
export { StoredFile } from './stored-file.entity.ts';
export { SyncToken } from './sync-token.entity.ts';
export { Upload, type UploadState } from './upload.entity.ts';
export { User } from './user.entity.ts';
export { UserSetting } from './user-setting.entity.ts';
export { VerificationCode } from './verification-code.entity.ts';
export { WebhookDelivery } from './webhook-delivery.entity.ts';
export { WebhookEndpoint } from './webhook-endpoint.entity.ts';

/** Every entity schema, registered with the ORM in one place. */
export const ENTITIES = [
  UserSchema,
  SessionSchema,
  VerificationCodeSchema,
  AuthBindingSchema,
  NoteSchema,
  NoteContentSchema,
  HighlightSchema,
  FolderSchema,
  IntegrationSchema,
  SyncTokenSchema,
  DeviceTicketSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
  ApiTokenSchema,
  OrderSchema,
  MembershipEventSchema,
  UserSettingSchema,
  FeedbackSchema,
  UploadSchema,
  StoredFileSchema,
];
