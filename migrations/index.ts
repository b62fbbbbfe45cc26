// Every migration in order. Listed by hand (not discovered from disk) so the same list works
// from TypeScript sources under Node's type stripping and inside the container image.
import { Migration20261121053701_initial } from './Migration20261121053701_initial.ts';
import { Migration20261121054358_accounts } from './Migration20261121054358_accounts.ts';
import { Migration20261121054746_pages } from './Migration20261121054746_pages.ts';
import { Migration20261121055009_notes } from './Migration20261121055009_notes.ts';
import { Migration20261121055626_library } from './Migration20261121055626_library.ts';
import { Migration20261121055924_daily } from './Migration20261121055924_daily.ts';
import { Migration20261121063000_page_notes_vector } from './Migration20261121063000_page_notes_vector.ts';
import { Migration20261123200000_note_owner_key } from './Migration20261123200000_note_owner_key.ts';
import { Migration20261124090000_maintenance_state } from './Migration20261124090000_maintenance_state.ts';
import { Migration20261124100000_folder_name_unique } from './Migration20261124100000_folder_name_unique.ts';
import { Migration20261124110000_note_vocabulary } from './Migration20261124110000_note_vocabulary.ts';
import { Migration20261124120000_daily_notes_are_notes } from './Migration20261124120000_daily_notes_are_notes.ts';
import { Migration20261125100000_note_counts } from './Migration20261125100000_note_counts.ts';
import { Migration20261125110000_search_positions } from './Migration20261125110000_search_positions.ts';
import { Migration20261126100000_sync } from './Migration20261126100000_sync.ts';
import { Migration20261127100000_api_tokens } from './Migration20261127100000_api_tokens.ts';
import { Migration20261127110000_webhooks } from './Migration20261127110000_webhooks.ts';
import { Migration20261127120000_idempotency } from './Migration20261127120000_idempotency.ts';
import { Migration20261128100000_membership } from './Migration20261128100000_membership.ts';
import { Migration20261129100000_extension } from './Migration20261129100000_extension.ts';
import { Migration20261130100000_reader_typography } from './Migration20261130100000_reader_typography.ts';
import { Migration20261130110000_reading_progress } from './Migration20261130110000_reading_progress.ts';
import { Migration20261130120000_stored_images } from './Migration20261130120000_stored_images.ts';
import { Migration20261130130000_daily_moves } from './Migration20261130130000_daily_moves.ts';
import { Migration20261201100000_note_highlight_tags } from './Migration20261201100000_note_highlight_tags.ts';
import { Migration20261202100000_code_mail_key } from './Migration20261202100000_code_mail_key.ts';
import { Migration20261202110000_device_codes } from './Migration20261202110000_device_codes.ts';
import { Migration20261202120000_upload_state } from './Migration20261202120000_upload_state.ts';
import { Migration20261202130000_highlight_count_trigger } from './Migration20261202130000_highlight_count_trigger.ts';
import { Migration20261203100000_tag_counts } from './Migration20261203100000_tag_counts.ts';

export const MIGRATIONS = [
  Migration20261121053701_initial,
  Migration20261121054358_accounts,
  Migration20261121054746_pages,
  Migration20261121055009_notes,
  Migration20261121055626_library,
  Migration20261121055924_daily,
  Migration20261121063000_page_notes_vector,
  Migration20261123200000_note_owner_key,
  Migration20261124090000_maintenance_state,
  Migration20261124100000_folder_name_unique,
  Migration20261124110000_note_vocabulary,
  Migration20261124120000_daily_notes_are_notes,
  Migration20261125100000_note_counts,
  Migration20261125110000_search_positions,
  Migration20261126100000_sync,
  Migration20261127100000_api_tokens,
  Migration20261127110000_webhooks,
  Migration20261127120000_idempotency,
  Migration20261128100000_membership,
  Migration20261129100000_extension,
  Migration20261130100000_reader_typography,
  Migration20261130110000_reading_progress,
  Migration20261130120000_stored_images,
  Migration20261130130000_daily_moves,
  Migration20261201100000_note_highlight_tags,
  Migration20261202100000_code_mail_key,
  Migration20261202110000_device_codes,
  Migration20261202120000_upload_state,
  Migration20261202130000_highlight_count_trigger,
  Migration20261203100000_tag_counts,
];
