import { Migration } from '@mikro-orm/migrations';

/** The note columns a sync exports: a write that changes none of them is no change to send. */
const NOTE_EXPORTED = [
  'kind',
  'url',
  'title',
  'site_name',
  'author',
  'published_at',
  'flow',
  'trashed_at',
  'folder_id',
  'tags',
  'clip_status',
  'clipped_at',
  'daily_date',
  'version',
];
const HIGHLIGHT_EXPORTED = [
  'note_id',
  'core_type',
  'text',
  'slot_id',
  'style',
  'image_url',
  'position_start',
  'detached',
  'annotation',
  'tags',
];

const rowOf = (prefix: 'new' | 'old', columns: string[]) =>
  `row(${columns.map((c) => `${prefix}."${c}"`).join(', ')})`;

/**
 * Change tracking for sync (server/domain/sync/changes.ts). Every note and highlight carries the
 * transaction that last changed what a sync exports (`change_xid`) and a position within it
 * (`change_seq`); deleted ones leave an `export_tombstone`. A reader takes only changes of
 * transactions older than its snapshot's xmin, which have all committed or aborted, in
 * (xid, seq) order: a cursor never passes a change that commits later, which a timestamp or a
 * sequence alone cannot promise (a transaction that took an earlier number may commit after
 * one that took a later one). Triggers stamp the rows, so every write path counts; they take
 * no lock beyond the row being written.
 */
export class Migration20261126100000_sync extends Migration {
  override name = 'Migration20261126100000_sync';

  override up(): void | Promise<void> {
    this.addSql(`create sequence "change_seq";`);
    for (const table of ['note', 'highlight']) {
      this.addSql(
        `alter table "${table}" add column "change_xid" xid8 not null default pg_current_xact_id(),
           add column "change_seq" bigint not null default nextval('change_seq');`,
      );
      this.addSql(
        `create index "${table}_changes_index" on "${table}" ("user_id", "change_xid", "change_seq");`,
      );
    }
    for (const [table, columns] of [
      ['note', NOTE_EXPORTED],
      ['highlight', HIGHLIGHT_EXPORTED],
    ] as const) {
      this.addSql(
        `create function "${table}_mark_change"() returns trigger language plpgsql as $$
         begin
           if ${rowOf('new', columns)} is distinct from ${rowOf('old', columns)} then
             new."change_xid" := pg_current_xact_id();
             new."change_seq" := nextval('change_seq');
           end if;
           return new;
         end $$;`,
      );
      this.addSql(
        `create trigger "${table}_mark_change" before update on "${table}"
         for each row execute function "${table}_mark_change"();`,
      );
    }

    this.addSql(
      `create table "export_tombstone" (
         "id" bigserial primary key,
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "note_id" varchar(32) not null,
         "highlight_id" varchar(64) null,
         "change_xid" xid8 not null default pg_current_xact_id(),
         "change_seq" bigint not null default nextval('change_seq'),
         "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "export_tombstone_changes_index" on "export_tombstone" ("user_id", "change_xid", "change_seq");`,
    );
    // A deleted note leaves one tombstone; a deleted highlight one while its note lives on (a
    // note's own deletion takes its highlights by cascade, and its tombstone says it all). An
    // account being deleted leaves none.
    this.addSql(
      `create function "note_tombstone"() returns trigger language plpgsql as $$
       begin
         insert into "export_tombstone" ("user_id", "note_id")
           select o."user_id", o."id" from "old_rows" o
           where exists (select 1 from "user" u where u."id" = o."user_id");
         return null;
       end $$;`,
    );
    this.addSql(
      `create trigger "note_tombstone" after delete on "note" referencing old table as "old_rows"
       for each statement execute function "note_tombstone"();`,
    );
    this.addSql(
      `create function "highlight_tombstone"() returns trigger language plpgsql as $$
       begin
         insert into "export_tombstone" ("user_id", "note_id", "highlight_id")
           select o."user_id", o."note_id", o."id" from "old_rows" o
           where o."note_id" is not null and exists (select 1 from "note" n where n."id" = o."note_id");
         return null;
       end $$;`,
    );
    this.addSql(
      `create trigger "highlight_tombstone" after delete on "highlight" referencing old table as "old_rows"
       for each statement execute function "highlight_tombstone"();`,
    );

    this.addSql(
      `create table "integration" (
         "id" bigserial primary key,
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "app" varchar(16) not null,
         "bound" boolean not null default false,
         "enabled" boolean not null default true,
         "settings" jsonb not null default '{}',
         "credentials" jsonb null,
         "cursor" varchar(512) null,
         "generation" integer not null default 0,
         "sync_client" varchar(128) null,
         "sync_lease_until" timestamptz null,
         "last_run_at" timestamptz null,
         "last_result" varchar(16) null,
         "last_error" varchar(64) null,
         "last_count" integer not null default 0,
         "created_at" timestamptz not null,
         "updated_at" timestamptz not null,
         constraint "integration_user_app_unique" unique ("user_id", "app"));`,
    );

    this.addSql(
      `create table "sync_token" (
         "id" bigserial primary key,
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "app" varchar(16) not null,
         "name" varchar(64) not null,
         "token_hash" varchar(64) not null unique,
         "client_id" varchar(128) null,
         "last_used_at" timestamptz null,
         "last_used_client" varchar(128) null,
         "created_at" timestamptz not null,
         "revoked_at" timestamptz null);`,
    );
    this.addSql(`create index "sync_token_user_index" on "sync_token" ("user_id", "created_at");`);

    this.addSql(
      `create table "device_ticket" (
         "client_id" varchar(128) primary key,
         "app" varchar(16) not null,
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "expires_at" timestamptz not null,
         "used_at" timestamptz null,
         "created_at" timestamptz not null);`,
    );

    this.addSql(
      `create table "push_record" (
         "user_id" bigint not null references "user" ("id") on delete cascade,
         "app" varchar(16) not null,
         "item_key" varchar(128) not null,
         "remote_id" varchar(256) null,
         "content_hash" varchar(64) not null,
         "pushed_at" timestamptz not null,
         primary key ("user_id", "app", "item_key"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `drop table if exists "push_record", "device_ticket", "sync_token", "integration", "export_tombstone";`,
    );
    for (const table of ['note', 'highlight']) {
      this.addSql(`drop trigger if exists "${table}_mark_change" on "${table}";`);
      this.addSql(`drop function if exists "${table}_mark_change"();`);
      this.addSql(`drop trigger if exists "${table}_tombstone" on "${table}";`);
      this.addSql(`drop function if exists "${table}_tombstone"();`);
      this.addSql(
        `alter table "${table}" drop column if exists "change_xid", drop column if exists "change_seq";`,
      );
    }
    this.addSql(`drop sequence if exists "change_seq";`);
  }
}
