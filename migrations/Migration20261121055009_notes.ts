import { Migration } from '@mikro-orm/migrations';

export class Migration20261121055009_notes extends Migration {
  override name = 'Migration20261121055009_notes';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "note" ("id" varchar(64) not null, "user_id" bigint not null, "page_id" varchar(32) null, "kind" smallint not null default 1, "core_type" smallint not null default 1, "text" text not null default '', "slot_id" smallint not null default 1, "style" smallint not null default 1, "image_url" text null, "selectors" jsonb null, "position_start" int null, "position_end" int null, "detached" boolean not null default false, "annotation_id" varchar(64) null, "annotation" text null, "annotated_at" timestamptz null, "tags" text[] not null default '{}', "daily_date" varchar(10) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "note_user_id_created_at_index" on "note" ("user_id", "created_at");`);
    this.addSql(`create index "note_page_id_position_start_index" on "note" ("page_id", "position_start");`);
    // Tag filters (`tags @> array[…]`) on highlights and pages.
    this.addSql(`create index "note_tags_index" on "note" using gin ("tags");`);
    this.addSql(`create index "page_tags_index" on "page" using gin ("tags");`);

    this.addSql(
      `alter table "note" add constraint "note_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "note" add constraint "note_page_id_foreign" foreign key ("page_id") references "page" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "page_tags_index";`);
    this.addSql(`drop table if exists "note" cascade;`);
  }
}
