import { Migration } from '@mikro-orm/migrations';

/**
 * A code's mail job carries the code sealed; the key that opens it is kept in the code's row
 * until the mail is sent (server/domain/auth/code-seal.ts), so Redis never holds a readable code.
 */
export class Migration20261202100000_code_mail_key extends Migration {
  override name = 'Migration20261202100000_code_mail_key';

  override async up(): Promise<void> {
    this.addSql('alter table "verification_code" add column "mail_key" varchar(64) null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "verification_code" drop column if exists "mail_key"');
  }
}
