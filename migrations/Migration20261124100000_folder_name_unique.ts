import { Migration } from '@mikro-orm/migrations';

export class Migration20261124100000_folder_name_unique extends Migration {
  override name = 'Migration20261124100000_folder_name_unique';

  override up(): void | Promise<void> {
    // Two folders created at once could both pass the name check. Same-named siblings that got
    // in that way keep their pages and get a numbered name; from now on the index decides.
    this.addSql(
      `update "folder" f set "name" = left(f."name", 120) || ' (' || d.rn || ')'
       from (select "id", row_number() over (partition by "user_id", "parent_id", "name" order by "created_at", "id") as rn
             from "folder") d
       where d."id" = f."id" and d.rn > 1;`,
    );
    this.addSql(
      `create unique index "folder_name_unique" on "folder" ("user_id", "parent_id", "name") nulls not distinct;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "folder_name_unique";`);
  }
}
