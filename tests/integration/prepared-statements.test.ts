import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/index.ts";
import { createTestDatabase, usingPostgres } from "../helpers/test-db.ts";

describe.runIf(usingPostgres)("statements prepared per connection on PostgreSQL", () => {
  it("are planned once and reused, and survive another instance's migration changing a table's columns", async () => {
    const database = await createTestDatabase();
    const handle = await createDb({ databaseUrl: database.url, poolMax: 1 });
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await sql`CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)`.execute(handle.db);
      await sql`INSERT INTO notes VALUES (1, 'one'), (2, 'two')`.execute(handle.db);
      const byId = (id: number) => sql<Record<string, unknown>>`SELECT * FROM notes WHERE id = ${id}`.execute(handle.db);
      expect((await byId(1)).rows).toEqual([{ id: 1, body: "one" }]);
      expect((await byId(2)).rows).toEqual([{ id: 2, body: "two" }]);
      const statements = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${"%FROM notes WHERE id = $1%"} AND name <> ''`.execute(handle.db);
      expect(statements.rows).toHaveLength(1);

      // Another instance migrates: the prepared SELECT * no longer matches the table's row type.
      await other.query("ALTER TABLE notes ADD COLUMN pinned boolean NOT NULL DEFAULT false");
      expect((await byId(1)).rows).toEqual([{ id: 1, body: "one", pinned: false }]);
      expect((await byId(2)).rows).toEqual([{ id: 2, body: "two", pinned: false }]);

      // Statements without parameters may be several at once, which only run unprepared.
      await sql.raw("UPDATE notes SET pinned = true WHERE id = 1; UPDATE notes SET body = 'due' WHERE id = 2").execute(handle.db);
      expect((await byId(1)).rows).toEqual([{ id: 1, body: "one", pinned: true }]);
      expect((await byId(2)).rows).toEqual([{ id: 2, body: "due", pinned: false }]);
    } finally {
      await other.end();
      await handle.close();
      await database.drop();
    }
  });
});
