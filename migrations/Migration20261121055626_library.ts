import { Migration } from '@mikro-orm/migrations';

export class Migration20261121055626_library extends Migration {
  override name = 'Migration20261121055626_library';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "folder" ("id" varchar(32) not null, "user_id" bigint not null, "parent_id" varchar(32) null, "name" varchar(128) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "folder_user_id_parent_id_index" on "folder" ("user_id", "parent_id");`);

    this.addSql(`alter table "page" add "folder_id" varchar(32) null;`);
    this.addSql(`create index "page_folder_id_index" on "page" ("folder_id");`);

    // Search: tsvectors built by our tokenizer (src/search/tokens.ts: CJK characters and bigrams,
    // other words), kept outside the entities and written with raw SQL. btree_gin lets one GIN
    // index serve "this user's documents matching the query".
    this.addSql(`create extension if not exists btree_gin;`);
    this.addSql(`alter table "page" add "search_vector" tsvector not null default '';`);
    this.addSql(`alter table "note" add "search_vector" tsvector not null default '';`);
    this.addSql(`create index "page_search_index" on "page" using gin ("user_id", "search_vector");`);
    this.addSql(`create index "note_search_index" on "note" using gin ("user_id", "search_vector");`);

    // The library's lists: each left-nav entry and sort reads one of these in order.
    this.addSql(
      `create index "page_live_created_index" on "page" ("user_id", "created_at" desc, "id" desc) where "trashed_at" is null;`,
    );
    this.addSql(
      `create index "page_live_flow_created_index" on "page" ("user_id", "flow", "created_at" desc, "id" desc) where "trashed_at" is null;`,
    );
    this.addSql(
      `create index "page_live_updated_index" on "page" ("user_id", "updated_at" desc, "id" desc) where "trashed_at" is null;`,
    );
    this.addSql(
      `create index "page_live_highlights_index" on "page" ("user_id", "highlight_count" desc, "id" desc) where "trashed_at" is null;`,
    );
    this.addSql(
      `create index "page_trashed_index" on "page" ("user_id", "trashed_at" desc, "id" desc) where "trashed_at" is not null;`,
    );
    this.addSql(
      `create index "note_user_slot_created_index" on "note" ("user_id", "slot_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "page" add constraint "page_folder_id_foreign" foreign key ("folder_id") references "folder" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "folder" add constraint "folder_user_id_foreign" foreign key ("user_id") references "user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "folder" add constraint "folder_parent_id_foreign" foreign key ("parent_id") references "folder" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "folder" drop constraint "folder_parent_id_foreign";`);
    this.addSql(`alter table "page" drop constraint "page_folder_id_foreign";`);

    this.addSql(`drop table if exists "folder" cascade;`);

    this.addSql(`alter table "page" drop column "folder_id";`);
  }
}
