// The schema, as numbered SQL migrations that run on PGlite and PostgreSQL alike. They run at
// start in one transaction under an advisory lock, so two instances starting together never race.
// A shipped migration is never edited: a change is a new entry.
import type { Sql } from './adapter';

/** The advisory lock key of start-up work (migrations, seeding, the admin account). */
export const STARTUP_LOCK = 741_852_963;

/** Each migration: one SQL text split on `;` at line ends, or a list of statements taken as they are. */
export const MIGRATIONS: readonly (string | readonly string[])[] = [
  /* 1 */ `
  CREATE TABLE users (
    id bigserial PRIMARY KEY,
    email text NOT NULL UNIQUE,
    name text NOT NULL,
    role text NOT NULL CHECK (role IN ('admin', 'user')),
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX sessions_user ON sessions (user_id);
  CREATE TABLE posts (
    id bigint PRIMARY KEY,
    title text NOT NULL,
    content text NOT NULL,
    category text NOT NULL,
    author text NOT NULL,
    author_email text NOT NULL,
    author_role text NOT NULL,
    likes bigint NOT NULL DEFAULT 0,
    comments integer NOT NULL DEFAULT 0,
    views integer NOT NULL DEFAULT 0,
    date text NOT NULL,
    is_top_contributor boolean NOT NULL DEFAULT false,
    tags jsonb NOT NULL DEFAULT '[]',
    status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    seq bigint NOT NULL
  );
  CREATE INDEX posts_seq ON posts (seq);
  CREATE INDEX posts_author_seq ON posts (author_email, seq);
  CREATE TABLE ops (
    id uuid PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id bigint,
    applied_at timestamptz NOT NULL DEFAULT now()
  );
  -- One row: the change head and the last post id. Every write transaction updates it first, so its
  -- row lock orders commits and a change number is only taken once every lower one has committed.
  CREATE TABLE change_head (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    seq bigint NOT NULL,
    last_post_id bigint NOT NULL,
    seeded boolean NOT NULL DEFAULT false
  );
  INSERT INTO change_head (seq, last_post_id) VALUES (0, 0);
  `,
  /* 2: a like in one statement, so the change_head lock is held for no network round trip. */ [
    `CREATE FUNCTION ie_like(p_op uuid, p_user bigint, p_post bigint, p_count bigint, p_admin boolean, p_email text)
    RETURNS SETOF posts LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint;
    BEGIN
      UPDATE change_head SET seq = seq + 1 RETURNING seq INTO v_seq;
      IF EXISTS (SELECT 1 FROM ops WHERE id = p_op) THEN RAISE EXCEPTION 'ie:duplicate'; END IF;
      RETURN QUERY UPDATE posts SET likes = likes + p_count, seq = v_seq WHERE id = p_post AND status = 'approved' RETURNING *;
      IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM posts WHERE id = p_post AND (p_admin OR status = 'approved' OR author_email = p_email)) THEN
          RAISE EXCEPTION 'ie:not_approved';
        END IF;
        RAISE EXCEPTION 'ie:not_found';
      END IF;
      INSERT INTO ops (id, user_id, post_id) VALUES (p_op, p_user, p_post);
      PERFORM pg_notify('ie_changes', v_seq::text);
    END $$`,
  ],
  /* 3: group commit of likes: many likes in one statement, one commit. One change_head increment
     (the lock) for the batch; each op id recorded (a conflict means a duplicate); each liked post
     updated once by the sum of its new likes. Op ids must be distinct within one batch. */ [
    `CREATE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint;
    BEGIN
      UPDATE change_head SET seq = change_head.seq + 1 RETURNING change_head.seq INTO v_seq;
      RETURN QUERY
      WITH input AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), likable AS (
        SELECT p.id FROM posts p WHERE p.id IN (SELECT pid FROM input) AND p.status = 'approved'
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id) SELECT i.id, i.uid, i.pid FROM input i WHERE i.pid IN (SELECT id FROM likable)
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = v_seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN c.id IS NOT NULL THEN NULL
             WHEN i.pid IN (SELECT id FROM likable) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM posts p WHERE p.id = i.pid AND (i.adm OR p.status = 'approved' OR p.author_email = i.email)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END
      FROM input i LEFT JOIN claimed c ON c.id = i.id
      ORDER BY i.ord;
      PERFORM pg_notify('ie_changes', v_seq::text);
    END $$`,
  ],
  /* 4: a group of likes that are all refused (or all duplicates) changes nothing, so it neither
     moves the change head nor notifies: the head's row is locked first (commits stay ordered), the
     next number is only taken, and announced, when some like was recorded. */ [
    `CREATE OR REPLACE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint;
    BEGIN
      SELECT change_head.seq + 1 INTO v_seq FROM change_head FOR UPDATE;
      RETURN QUERY
      WITH input AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), likable AS (
        SELECT p.id FROM posts p WHERE p.id IN (SELECT pid FROM input) AND p.status = 'approved'
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id) SELECT i.id, i.uid, i.pid FROM input i WHERE i.pid IN (SELECT id FROM likable)
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = v_seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN c.id IS NOT NULL THEN NULL
             WHEN i.pid IN (SELECT id FROM likable) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM posts p WHERE p.id = i.pid AND (i.adm OR p.status = 'approved' OR p.author_email = i.email)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END
      FROM input i LEFT JOIN claimed c ON c.id = i.id
      ORDER BY i.ord;
      -- The posts updated above carry v_seq (no other post can: the head's row lock is held).
      IF EXISTS (SELECT 1 FROM posts WHERE seq = v_seq) THEN
        UPDATE change_head SET seq = v_seq;
        PERFORM pg_notify('ie_changes', v_seq::text);
      END IF;
    END $$`,
  ],
  /* 5: replies. Replies to approved posts (a reply's id is the id of the op that wrote it;
     created_at and edited_at are milliseconds since the epoch, on the server's clock), one view per
     member per post, and the reply an op was about (so a retried op answers with it). A post's
     comments is the number of its visible replies: there was none before, so every post's comments
     becomes 0, and a post whose number changes (the sample posts) gets one new change number, so
     devices that hold it learn the new number. */ `
  CREATE TABLE replies (
    id uuid PRIMARY KEY,
    post_id bigint NOT NULL REFERENCES posts (id),
    author text NOT NULL,
    author_email text NOT NULL,
    author_role text NOT NULL,
    content text NOT NULL,
    quote_id uuid,
    created_at bigint NOT NULL,
    edited_at bigint,
    state text NOT NULL CHECK (state IN ('visible', 'hidden', 'deleted')),
    seq bigint NOT NULL
  );
  CREATE INDEX replies_seq ON replies (seq);
  CREATE INDEX replies_post ON replies (post_id, created_at);
  CREATE TABLE post_views (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id bigint NOT NULL,
    PRIMARY KEY (user_id, post_id)
  );
  ALTER TABLE ops ADD COLUMN reply_id uuid;
  UPDATE change_head SET seq = seq + 1 WHERE EXISTS (SELECT 1 FROM posts WHERE comments <> 0);
  UPDATE posts SET comments = 0, seq = (SELECT seq FROM change_head) WHERE comments <> 0;
  `,
  /* 6: writing. A post's edits (edited_at in ms, while approved; resubmitted, from an edit of a
     rejected post until its next review; previous, the version an edit of an approved post
     replaced). A deleted post moves out of `posts` into `deleted_posts` (its columns, plus when, by
     whom, and the deletion's change number in seq), so every read of `posts` (pulls, likes in
     ie_like_batch, reviews, replies, views) leaves it out unchanged; the row is kept for admins and
     backups. Its replies stay where they are, and every read of replies joins posts, so the
     foreign key from replies to posts goes (its name is found, not assumed). */ [
    `ALTER TABLE posts ADD COLUMN edited_at bigint`,
    `ALTER TABLE posts ADD COLUMN resubmitted boolean NOT NULL DEFAULT false`,
    `ALTER TABLE posts ADD COLUMN previous jsonb`,
    `CREATE TABLE deleted_posts (
      LIKE posts INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
      deleted_at bigint NOT NULL,
      deleted_by bigint,
      PRIMARY KEY (id)
    )`,
    `CREATE INDEX deleted_posts_seq ON deleted_posts (seq)`,
    `DO $$
    DECLARE c record;
    BEGIN
      FOR c IN SELECT conname FROM pg_constraint
        WHERE contype = 'f' AND conrelid = 'replies'::regclass AND confrelid = 'posts'::regclass
      LOOP
        EXECUTE format('ALTER TABLE replies DROP CONSTRAINT %I', c.conname);
      END LOOP;
    END $$`,
  ],
  /* 7: moderation and notifications. A post's reason (of a rejection or hide), when it entered the
     review queue (submitted_at: its creation or last resubmission; ms; backfilled from the id, which
     is Date.now()-based for every post made here) and when it was last reviewed (reviewed_at), in
     posts and deleted_posts alike. Flags: one per member and item ever (a NULL reply_id, the post
     itself, counts as one value in the unique index), their id the op's. Notifications: one row per
     recipient. like_days: likes given per UTC day, kept by a statement trigger on posts (the group
     commit of likes updates many posts in one statement: one upsert per statement). */ [
    `ALTER TABLE posts ADD COLUMN reason text`,
    `ALTER TABLE posts ADD COLUMN submitted_at bigint`,
    `ALTER TABLE posts ADD COLUMN reviewed_at bigint`,
    // When an admin hid it from the forum (hidePost): members who could see it get its tombstone.
    `ALTER TABLE posts ADD COLUMN hidden_at bigint`,
    `UPDATE posts SET submitted_at = id WHERE id > 1000000000000`,
    `ALTER TABLE deleted_posts ADD COLUMN reason text`,
    `ALTER TABLE deleted_posts ADD COLUMN submitted_at bigint`,
    `ALTER TABLE deleted_posts ADD COLUMN reviewed_at bigint`,
    `UPDATE deleted_posts SET submitted_at = id WHERE id > 1000000000000`,
    `CREATE TABLE flags (
      id uuid PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      post_id bigint NOT NULL,
      reply_id uuid,
      reason text NOT NULL,
      text text NOT NULL DEFAULT '',
      created_at bigint NOT NULL,
      state text NOT NULL CHECK (state IN ('open', 'dismissed', 'resolved')),
      seq bigint NOT NULL
    )`,
    `CREATE UNIQUE INDEX flags_once ON flags (user_id, post_id, coalesce(reply_id, '00000000-0000-0000-0000-000000000000'::uuid))`,
    `CREATE INDEX flags_seq ON flags (seq)`,
    `CREATE INDEX flags_user_seq ON flags (user_id, seq)`,
    `CREATE INDEX flags_open ON flags (post_id, reply_id) WHERE state = 'open'`,
    `CREATE TABLE notifications (
      id uuid PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL,
      post_id bigint NOT NULL,
      reply_id uuid,
      actor text,
      post_title text NOT NULL,
      reason text,
      created_at bigint NOT NULL,
      read_at bigint,
      seq bigint NOT NULL
    )`,
    `CREATE INDEX notifications_user_seq ON notifications (user_id, seq)`,
    `CREATE TABLE like_days (day date PRIMARY KEY, likes bigint NOT NULL)`,
    `CREATE FUNCTION ie_count_like_days() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO like_days (day, likes)
      SELECT (now() AT TIME ZONE 'UTC')::date, sum(n.likes - o.likes)
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.likes > o.likes
      HAVING sum(n.likes - o.likes) > 0
      ON CONFLICT (day) DO UPDATE SET likes = like_days.likes + EXCLUDED.likes;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER posts_like_days AFTER UPDATE ON posts
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ie_count_like_days()`,
  ],
  /* 8: saved posts and preferences. A member's theme, and prefs_seq: the change number of their last preferences change
     (theme or name; 0: never changed), pulled by their devices like any other change. member_id:
     the public id of /members/:id (memberId of src/shared/members.ts, FNV-1a of the lower-cased
     email), written by createUser and, for the accounts made before it, at start-up (startup.ts),
     since SQL has no 64-bit unsigned arithmetic to compute it here. Saved posts: one row per member
     and post, an unsave kept as saved = false (it syncs, so other devices drop it). Full-text search
     over posts: an expression GIN index on the title (weight A) and the content (weight B), in
     English; server/db/search.ts writes the very same expression (SEARCH_VECTOR), or the index is
     not used. An expression index rather than a generated column: `SELECT *` and `RETURNING *` of
     posts (and the deleted_posts made LIKE posts) stay as they were. replies_author serves a
     rename and a member page. */ [
    `ALTER TABLE users ADD COLUMN theme text NOT NULL DEFAULT 'system' CHECK (theme IN ('system', 'light', 'dark'))`,
    `ALTER TABLE users ADD COLUMN prefs_seq bigint NOT NULL DEFAULT 0`,
    `ALTER TABLE users ADD COLUMN member_id text`,
    `CREATE INDEX users_member_id ON users (member_id)`,
    `CREATE TABLE saved_posts (
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      post_id bigint NOT NULL,
      saved boolean NOT NULL,
      at bigint NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (user_id, post_id)
    )`,
    `CREATE INDEX saved_posts_user_seq ON saved_posts (user_id, seq)`,
    `CREATE INDEX posts_search ON posts USING gin (
      (setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, content), 'B'))
    )`,
    `CREATE INDEX replies_author ON replies (author_email)`,
  ],
  /* 9: one operation, one definition. Each recorded op keeps the change number it took (null: it
     changed nothing, or it was applied before this migration), so every answer to it, a retry's
     too, tells the device exactly which change holds it. The group commit of likes records it too. */ [
    `ALTER TABLE ops ADD COLUMN seq bigint`,
    `CREATE OR REPLACE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint;
    BEGIN
      SELECT change_head.seq + 1 INTO v_seq FROM change_head FOR UPDATE;
      RETURN QUERY
      WITH input AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), likable AS (
        SELECT p.id FROM posts p WHERE p.id IN (SELECT pid FROM input) AND p.status = 'approved'
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id, seq) SELECT i.id, i.uid, i.pid, v_seq FROM input i WHERE i.pid IN (SELECT id FROM likable)
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = v_seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN c.id IS NOT NULL THEN NULL
             WHEN i.pid IN (SELECT id FROM likable) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM posts p WHERE p.id = i.pid AND (i.adm OR p.status = 'approved' OR p.author_email = i.email)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END
      FROM input i LEFT JOIN claimed c ON c.id = i.id
      ORDER BY i.ord;
      -- The posts updated above carry v_seq (no other post can: the head's row lock is held).
      IF EXISTS (SELECT 1 FROM posts WHERE seq = v_seq) THEN
        UPDATE change_head SET seq = v_seq;
        PERFORM pg_notify('ie_changes', v_seq::text);
      END IF;
    END $$`,
  ],
  /* 10: safe with strangers. Public ids become random (member_id, 16 hex digits made at start-up,
     startup.ts: FNV-1a of the email told anyone who guessed an email whether it had an account), so
     every id is cleared here. Display names are unique by name_key (names.ts: case, width and
     invisible characters ignored; written by createUser and a rename, filled at start-up, an older
     duplicate keeping its name under a key of its own). name_seq: the change number of a member's
     last rename, pulled by every device (a rename is one change, not one per post). A notification
     names its actor's account (actor_id), so it shows their name as it is now, with the Admin badge.
     The group commit of likes gives each liked post a number of its own (a page never carries more
     rows than its limit for one batch). */ [
    `UPDATE users SET member_id = NULL`,
    `DROP INDEX users_member_id`,
    `CREATE UNIQUE INDEX users_member_id ON users (member_id)`,
    `ALTER TABLE users ADD COLUMN name_key text`,
    `CREATE UNIQUE INDEX users_name_key ON users (name_key)`,
    `ALTER TABLE users ADD COLUMN name_seq bigint NOT NULL DEFAULT 0`,
    `CREATE INDEX users_name_seq ON users (name_seq)`,
    `ALTER TABLE notifications ADD COLUMN actor_id bigint`,
    `CREATE OR REPLACE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint;
    BEGIN
      SELECT change_head.seq INTO v_seq FROM change_head FOR UPDATE;
      RETURN QUERY
      WITH input AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), likable AS (
        SELECT p.id, v_seq + dense_rank() OVER (ORDER BY p.id) AS seq
        FROM posts p WHERE p.id IN (SELECT pid FROM input) AND p.status = 'approved'
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id, seq)
        SELECT i.id, i.uid, i.pid, l.seq FROM input i JOIN likable l ON l.id = i.pid
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = l.seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        JOIN likable l ON l.id = s.post_id
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN c.id IS NOT NULL THEN NULL
             WHEN i.pid IN (SELECT id FROM likable) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM posts p WHERE p.id = i.pid AND (i.adm OR p.status = 'approved' OR p.author_email = i.email)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END
      FROM input i LEFT JOIN claimed c ON c.id = i.id
      ORDER BY i.ord;
      -- The posts updated above carry numbers above v_seq (no other post can: the head's row lock is
      -- held); the numbers of posts whose likes were all duplicates stay unused, a gap pulls skip.
      SELECT max(seq) INTO v_seq FROM posts WHERE seq > v_seq;
      IF v_seq IS NOT NULL THEN
        UPDATE change_head SET seq = v_seq;
        PERFORM pg_notify('ie_changes', v_seq::text);
      END IF;
    END $$`,
  ],
  /* 11: members the staff can stop, and limits shared by every instance. A member suspended until a
     time (ms) with a reason, silenced, or closed (Delete spammer; ms). A session a suspension or a
     closing ended keeps its row with the reason (ended_reason), so the device that carries it is told
     why. Every staff action is written to staff_log. rate_buckets: one token bucket per member and
     limit (server/lib/limits.ts), updated in one statement, so the limits hold across instances;
     rate_limit_settings: the admin's changes to the default limits. */ [
    `ALTER TABLE users ADD COLUMN suspended_until bigint`,
    `ALTER TABLE users ADD COLUMN suspend_reason text`,
    `ALTER TABLE users ADD COLUMN silenced boolean NOT NULL DEFAULT false`,
    `ALTER TABLE users ADD COLUMN closed_at bigint`,
    `ALTER TABLE sessions ADD COLUMN ended_reason text`,
    `CREATE TABLE staff_log (
      id bigserial PRIMARY KEY,
      at bigint NOT NULL,
      actor_id bigint NOT NULL REFERENCES users (id),
      action text NOT NULL,
      member_id bigint REFERENCES users (id),
      post_id bigint,
      reply_id uuid,
      title text,
      reason text,
      detail jsonb
    )`,
    `CREATE INDEX staff_log_member ON staff_log (member_id, id)`,
    `CREATE TABLE rate_buckets (
      key text NOT NULL,
      name text NOT NULL,
      tokens double precision NOT NULL,
      at bigint NOT NULL,
      PRIMARY KEY (key, name)
    )`,
    `CREATE TABLE rate_limit_settings (
      name text PRIMARY KEY,
      count integer NOT NULL CHECK (count >= 0),
      seconds integer NOT NULL CHECK (seconds > 0),
      first_day_count integer NOT NULL CHECK (first_day_count >= 0),
      first_day_seconds integer NOT NULL CHECK (first_day_seconds > 0)
    )`,
  ],
  /* 12: search at any size. Each post's and each reply's searched document is stored, in tables of
     their own kept by triggers (a column would ride along every SELECT * and RETURNING * of posts and
     replies, and into deleted_posts), so ranking reads the stored vector instead of parsing the text
     again. Their GIN indexes keep no pending list (fastupdate off): PGlite never vacuums, and a
     pending list that only grows is read in full by every search (migration 8's index was skipped). */ [
    `DROP INDEX IF EXISTS posts_search`,
    `CREATE TABLE post_search (
      post_id bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
      doc tsvector NOT NULL
    )`,
    `CREATE TABLE reply_search (
      reply_id uuid PRIMARY KEY REFERENCES replies (id) ON DELETE CASCADE,
      post_id bigint NOT NULL,
      doc tsvector NOT NULL
    )`,
    `CREATE FUNCTION ie_post_search() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO post_search (post_id, doc)
      VALUES (NEW.id, setweight(to_tsvector('english'::regconfig, NEW.title), 'A') || setweight(to_tsvector('english'::regconfig, NEW.content), 'B'))
      ON CONFLICT (post_id) DO UPDATE SET doc = EXCLUDED.doc;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION ie_reply_search() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO reply_search (reply_id, post_id, doc) VALUES (NEW.id, NEW.post_id, to_tsvector('english'::regconfig, NEW.content))
      ON CONFLICT (reply_id) DO UPDATE SET doc = EXCLUDED.doc;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER posts_search_doc AFTER INSERT OR UPDATE OF title, content ON posts FOR EACH ROW EXECUTE FUNCTION ie_post_search()`,
    `CREATE TRIGGER replies_search_doc AFTER INSERT OR UPDATE OF content ON replies FOR EACH ROW EXECUTE FUNCTION ie_reply_search()`,
    `INSERT INTO post_search (post_id, doc)
     SELECT id, setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, content), 'B') FROM posts`,
    `INSERT INTO reply_search (reply_id, post_id, doc) SELECT id, post_id, to_tsvector('english'::regconfig, content) FROM replies`,
    `CREATE INDEX post_search_doc ON post_search USING gin (doc) WITH (fastupdate = off)`,
    `CREATE INDEX reply_search_doc ON reply_search USING gin (doc) WITH (fastupdate = off)`,
    // The newest matches first when nearly every reply matches: walked backwards, stopped at the bound.
    `CREATE INDEX reply_search_post ON reply_search (post_id, reply_id)`,
  ],
  /* 13: accounts people keep, and email. mail_outbox is the durable queue of emails: a message is
     written in the transaction that decided it, claimed by one instance at a time (FOR UPDATE SKIP
     LOCKED, with a lease that a killed sender's claim outlives by no more than lease_ms), retried with
     backoff, and marked sent once. account_tokens are the single-use links of email (confirm an
     address, reset a password), stored by their SHA-256. Sessions gain a public id, the device's
     browser and platform and when it was last seen (Profile's "Signed-in devices"); users gain when
     their address was confirmed, how they want email, and when they were last emailed about what
     they had not read. Notifications remember when they were emailed, so nothing is emailed twice. */ [
    `CREATE TABLE mail_outbox (
      id bigserial PRIMARY KEY,
      kind text NOT NULL,
      user_id bigint REFERENCES users (id) ON DELETE CASCADE,
      to_email text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at bigint NOT NULL,
      next_attempt_at bigint NOT NULL,
      locked_until bigint,
      attempts integer NOT NULL DEFAULT 0,
      sent_at bigint,
      failed_at bigint,
      last_error text
    )`,
    `CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL`,
    `CREATE TABLE account_tokens (
      token_hash text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL,
      email text NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      used_at bigint
    )`,
    `CREATE INDEX account_tokens_user ON account_tokens (user_id, purpose)`,
    `ALTER TABLE sessions ADD COLUMN public_id text`,
    `ALTER TABLE sessions ADD COLUMN user_agent text`,
    `ALTER TABLE sessions ADD COLUMN last_seen_at bigint`,
    `UPDATE sessions SET public_id = md5(token_hash), last_seen_at = (extract(epoch FROM created_at) * 1000)::bigint`,
    `CREATE UNIQUE INDEX sessions_public_id ON sessions (public_id)`,
    `ALTER TABLE users ADD COLUMN email_verified_at bigint`,
    `ALTER TABLE users ADD COLUMN email_pref text NOT NULL DEFAULT 'away'`,
    `ALTER TABLE users ADD COLUMN away_emailed_at bigint`,
    `ALTER TABLE users ADD COLUMN digest_sent_on date`,
    `ALTER TABLE notifications ADD COLUMN emailed_at bigint`,
    `CREATE INDEX notifications_unread ON notifications (created_at) WHERE read_at IS NULL AND emailed_at IS NULL`,
  ],
  // 14: polls (issue 42). A post's poll as its author wrote it (question, options, multiple,
  // closesAt) and when it was closed; the counts are read from the ballots, one per member and poll.
  [
    `ALTER TABLE posts ADD COLUMN poll jsonb`,
    `ALTER TABLE deleted_posts ADD COLUMN poll jsonb`,
    `CREATE TABLE poll_votes (
      post_id bigint NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      choices jsonb NOT NULL,
      at bigint NOT NULL,
      PRIMARY KEY (post_id, user_id)
    )`,
    `CREATE INDEX poll_votes_user ON poll_votes (user_id)`,
  ],
  // 15: attachments (issue 42). A file once per SHA-256 (its type and an image's size, read from its
  // bytes), its bytes apart (server/attachments/storage.ts), and who uploaded it under which name
  // (each member's quota and daily limit count these).
  [
    `CREATE TABLE attachments (
      sha256 text PRIMARY KEY,
      kind text NOT NULL,
      mime text NOT NULL,
      size integer NOT NULL,
      width integer,
      height integer,
      created_at bigint NOT NULL
    )`,
    `CREATE TABLE attachment_blobs (
      sha256 text PRIMARY KEY REFERENCES attachments (sha256) ON DELETE CASCADE,
      bytes bytea NOT NULL
    )`,
    `CREATE TABLE attachment_uploads (
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      sha256 text NOT NULL REFERENCES attachments (sha256) ON DELETE CASCADE,
      name text NOT NULL,
      at bigint NOT NULL,
      PRIMARY KEY (user_id, sha256)
    )`,
    `CREATE INDEX attachment_uploads_sha ON attachment_uploads (sha256)`,
  ],
  // 16: a post's and a reply's attachments (issue 42): what the server read of each file when it was
  // written, as a list; the GIN indexes answer "what carries this file" (who may fetch it, what to collect).
  [
    `ALTER TABLE posts ADD COLUMN attachments jsonb`,
    `ALTER TABLE deleted_posts ADD COLUMN attachments jsonb`,
    `CREATE INDEX posts_attachments ON posts USING gin (attachments jsonb_path_ops)`,
    `ALTER TABLE replies ADD COLUMN attachments jsonb`,
    `CREATE INDEX replies_attachments ON replies USING gin (attachments jsonb_path_ops)`,
  ],
  // 17: sign-in attempt limits shared by every instance (issue 43): one fixed window per limiter and
  // key (an address, an email and address), its end in milliseconds since the epoch.
  `CREATE TABLE attempt_windows (
    limiter text NOT NULL,
    key text NOT NULL,
    count integer NOT NULL,
    reset_at bigint NOT NULL,
    PRIMARY KEY (limiter, key)
  )`,
  // 18: a device holds a window of the forum (issue 44): its first sync asks for the posts that are
  // not approved (its own, and to admins every pending or rejected one) without reading the rest,
  // and a category's older pages read that category's approved posts alone, newest first.
  [
    `CREATE INDEX posts_unapproved ON posts (id) WHERE status <> 'approved'`,
    `CREATE INDEX posts_category_approved ON posts (category, id) WHERE status = 'approved'`,
  ],
  // 19: accounts that prove their address (issue 59): Create Account holds a sign-up here (the name,
  // the password's hash, its link's SHA-256) until the emailed link is used; no account exists, and
  // nothing can act, before that. A row expires with its link.
  [
    `CREATE TABLE pending_signups (
      token_hash text PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      password_hash text NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL
    )`,
    `CREATE INDEX pending_signups_email ON pending_signups (email)`,
  ],
  // 20: a silence says why and may end (issue 59, item 7): the reason the member reads in their
  // banner, and the end (ms; null: until an admin lifts it), after which isSilencedAt lets them write.
  [`ALTER TABLE users ADD COLUMN silence_reason text`, `ALTER TABLE users ADD COLUMN silenced_until bigint`],
  // 21: the like of migration 2 (ie_like), which nothing has called since the group commit's
  // ie_like_batch (migration 3) took its place: a second copy of the like rule, never run (issue 60).
  [`DROP FUNCTION ie_like(uuid, bigint, bigint, bigint, boolean, text)`],
  // 22: groups (issue 61, item 1): a group's name, unique by its key (names.ts, as members' names),
  // and its members, one row per member who was ever in it (in_group false: taken out, so their
  // devices hear it in the next pull). Each row carries the change number of its last change.
  [
    `CREATE TABLE groups (
      id text PRIMARY KEY,
      name text NOT NULL,
      name_key text NOT NULL UNIQUE,
      description text NOT NULL DEFAULT '',
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      seq bigint NOT NULL
    )`,
    `CREATE INDEX groups_seq ON groups (seq)`,
    `CREATE TABLE group_members (
      group_id text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      in_group boolean NOT NULL,
      at bigint NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (group_id, user_id)
    )`,
    `CREATE INDEX group_members_user ON group_members (user_id, in_group)`,
    `CREATE INDEX group_members_seq ON group_members (seq)`,
  ],
  // 23: categories the admins shape (issue 61, item 2): the spec's six are rows whose ids are their
  // names (posts hold a category's id), change number 0 (every device has them built in); who sees
  // a category (see_groups; NULL: everyone) and who posts in it (post_groups; NULL: who sees it).
  [
    `CREATE TABLE categories (
      id text PRIMARY KEY,
      name text NOT NULL,
      name_key text NOT NULL UNIQUE,
      description text NOT NULL DEFAULT '',
      position integer NOT NULL,
      archived boolean NOT NULL DEFAULT false,
      see_groups text[],
      post_groups text[],
      seq bigint NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX categories_seq ON categories (seq)`,
    `INSERT INTO categories (id, name, name_key, position) VALUES
      ('Quantitative', 'Quantitative', 'quantitative', 0),
      ('Qualitative', 'Qualitative', 'qualitative', 1),
      ('AI & Technology', 'AI & Technology', 'ai technology', 2),
      ('Trends', 'Trends', 'trends', 3),
      ('Best Practices', 'Best Practices', 'best practices', 4),
      ('Case Studies', 'Case Studies', 'case studies', 5)`,
  ],
  // 24: messages (issue 61): conversations (ids made on the device), their participants (each with
  // when they last read it and when they left it; a conversation_members row's seq: that member's own
  // change; emailed_at: the newest message "When I'm away" told them of), and the messages. A pull reads a member's conversations by user and a conversation's
  // messages by change number.
  [
    `CREATE TABLE conversations (
      id uuid PRIMARY KEY,
      subject text NOT NULL,
      author_id bigint NOT NULL REFERENCES users (id),
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      seq bigint NOT NULL
    )`,
    `CREATE TABLE conversation_members (
      conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id),
      position integer NOT NULL,
      last_read_at bigint,
      left_at bigint,
      emailed_at bigint,
      seq bigint NOT NULL,
      PRIMARY KEY (conversation_id, user_id)
    )`,
    `CREATE INDEX conversation_members_user ON conversation_members (user_id, conversation_id)`,
    `CREATE TABLE messages (
      id uuid PRIMARY KEY,
      conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id),
      body text NOT NULL,
      created_at bigint NOT NULL,
      seq bigint NOT NULL
    )`,
    `CREATE INDEX messages_conversation ON messages (conversation_id, seq)`,
    `CREATE INDEX messages_seq ON messages (seq)`,
    // A member's flag of a message: the admins open its conversation through it (staff log).
    `CREATE TABLE message_flags (
      id uuid PRIMARY KEY,
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id),
      reason text NOT NULL,
      text text NOT NULL,
      created_at bigint NOT NULL,
      state text NOT NULL DEFAULT 'open',
      UNIQUE (message_id, user_id)
    )`,
  ],
  // 25: a like on a post in a private category (issue 61, item 3): the like batch takes it only from
  // a liker who may see the post (src/shared/visibility.ts, likeOutcome: an admin, or a member in one
  // of its category's groups), per like, not per post (two likers of one post in one batch may differ);
  // to anyone else the post is not_found, as if it did not exist.
  [
    `CREATE OR REPLACE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint;
    BEGIN
      SELECT change_head.seq INTO v_seq FROM change_head FOR UPDATE;
      RETURN QUERY
      WITH input AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), seen AS (
        SELECT i.id, i.pid,
          (i.adm OR NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = p.category AND c.see_groups IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM group_members g WHERE g.user_id = i.uid AND g.in_group AND g.group_id = ANY(c.see_groups)))) AS sees,
          p.status = 'approved' AS approved, (i.adm OR p.author_email = i.email) AS own
        FROM input i JOIN posts p ON p.id = i.pid
      ), allowed AS (
        SELECT s.id, s.pid FROM seen s WHERE s.sees AND s.approved
      ), likable AS (
        SELECT p.id, v_seq + dense_rank() OVER (ORDER BY p.id) AS seq
        FROM posts p WHERE p.id IN (SELECT pid FROM allowed)
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id, seq)
        SELECT i.id, i.uid, i.pid, l.seq FROM input i JOIN likable l ON l.id = i.pid WHERE i.id IN (SELECT id FROM allowed)
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = l.seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        JOIN likable l ON l.id = s.post_id
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN c.id IS NOT NULL THEN NULL
             WHEN i.id IN (SELECT id FROM allowed) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM seen s WHERE s.id = i.id AND s.sees AND (s.approved OR s.own)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END
      FROM input i LEFT JOIN claimed c ON c.id = i.id
      ORDER BY i.ord;
      -- The posts updated above carry numbers above v_seq (no other post can: the head's row lock is
      -- held); the numbers of posts whose likes were all duplicates stay unused, a gap pulls skip.
      SELECT max(seq) INTO v_seq FROM posts WHERE seq > v_seq;
      IF v_seq IS NOT NULL THEN
        UPDATE change_head SET seq = v_seq;
        PERFORM pg_notify('ie_changes', v_seq::text);
      END IF;
    END $$`,
  ],
  // 26: live streams scoped by who may see a change (issue 61, item 6): the like batch's NOTIFY names
  // the admins, groups and authors of liked posts that are all in private categories (the payload of
  // server/db/sync/audience.ts), so only the streams that may see them wake; else everyone, as before.
  [
    `CREATE OR REPLACE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint; v_first bigint; v_public boolean; v_payload text;
    BEGIN
      SELECT change_head.seq INTO v_seq FROM change_head FOR UPDATE;
      v_first := v_seq;
      RETURN QUERY
      WITH input AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), seen AS (
        SELECT i.id, i.pid,
          (i.adm OR NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = p.category AND c.see_groups IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM group_members g WHERE g.user_id = i.uid AND g.in_group AND g.group_id = ANY(c.see_groups)))) AS sees,
          p.status = 'approved' AS approved, (i.adm OR p.author_email = i.email) AS own
        FROM input i JOIN posts p ON p.id = i.pid
      ), allowed AS (
        SELECT s.id, s.pid FROM seen s WHERE s.sees AND s.approved
      ), likable AS (
        SELECT p.id, v_seq + dense_rank() OVER (ORDER BY p.id) AS seq
        FROM posts p WHERE p.id IN (SELECT pid FROM allowed)
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id, seq)
        SELECT i.id, i.uid, i.pid, l.seq FROM input i JOIN likable l ON l.id = i.pid WHERE i.id IN (SELECT id FROM allowed)
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = l.seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        JOIN likable l ON l.id = s.post_id
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN c.id IS NOT NULL THEN NULL
             WHEN i.id IN (SELECT id FROM allowed) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM seen s WHERE s.id = i.id AND s.sees AND (s.approved OR s.own)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END
      FROM input i LEFT JOIN claimed c ON c.id = i.id
      ORDER BY i.ord;
      -- The posts updated above carry numbers above v_seq (no other post can: the head's row lock is
      -- held); the numbers of posts whose likes were all duplicates stay unused, a gap pulls skip.
      SELECT max(seq) INTO v_seq FROM posts WHERE seq > v_seq;
      IF v_seq IS NOT NULL THEN
        UPDATE change_head SET seq = v_seq;
        -- Who may see the liked posts (server/db/sync/audience.ts): everyone when one of them is in a
        -- category everyone sees; else the admins, their categories' groups and their authors.
        SELECT coalesce(bool_or(c.see_groups IS NULL), true) INTO v_public
        FROM posts p LEFT JOIN categories c ON c.id = p.category WHERE p.seq > v_first;
        v_payload := v_seq::text;
        IF NOT v_public THEN
          v_payload := v_seq::text || ' a'
            || coalesce(' g:' || (SELECT string_agg(DISTINCT g, ',') FROM posts p JOIN categories c ON c.id = p.category
                 CROSS JOIN LATERAL unnest(c.see_groups) g WHERE p.seq > v_first AND g ~ '^[A-Za-z0-9_-]+$'), '')
            || coalesce(' u:' || (SELECT string_agg(DISTINCT u.id::text, ',') FROM posts p JOIN users u ON u.email = p.author_email
                 WHERE p.seq > v_first), '');
          IF length(v_payload) > 7000 THEN v_payload := v_seq::text; END IF;
        END IF;
        PERFORM pg_notify('ie_changes', v_payload);
      END IF;
    END $$`,
  ],
  // 27: the posts an email names (notifications, the digest's most liked): the mail worker looks
  // again when it sends, and an email naming a post its recipient may no longer see (taken out of a
  // private category's group since it was queued) is not sent. A post moved to another category by an
  // edit is marked `moved`: whoever may not see it where it is now gets its tombstone (their devices
  // held it where it was).
  [`ALTER TABLE mail_outbox ADD COLUMN post_ids bigint[]`, `ALTER TABLE posts ADD COLUMN moved boolean NOT NULL DEFAULT false`],
  // 28: a message's files (issue 61): named as a reply's are (uploaded first, then the operation
  // names them), read by the download route for the conversation's participants only.
  [
    `ALTER TABLE messages ADD COLUMN attachments jsonb`,
    `CREATE INDEX messages_attachments ON messages USING gin (attachments jsonb_path_ops)`,
  ],
  // 29: following (issue 62). A member's level on a post, a category or a tag (`target`: a post's id
  // in decimal, a category's id, a tag in lower case; Normal is kept too: it stops writing there from
  // making them watch it), and their read position in each post they read (`read_to`: the createdAt of
  // the last reply read, 0 the post itself; it only moves forward). Both are pulled by their own
  // devices only, by change number (user_id, seq). `follows_watching` finds a post's, a category's or a
  // tag's watchers when a reply is written. auto_watch: writing a post or replying makes the member
  // watch it (Profile's "Watch what I write").
  [
    `CREATE TABLE follows (
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('post', 'category', 'tag')),
      target text NOT NULL,
      level text NOT NULL CHECK (level IN ('watching', 'normal', 'muted')),
      at bigint NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (user_id, kind, target)
    )`,
    `CREATE INDEX follows_user_seq ON follows (user_id, seq)`,
    `CREATE INDEX follows_watching ON follows (kind, target) WHERE level <> 'normal'`,
    `CREATE TABLE post_reads (
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      post_id bigint NOT NULL,
      read_to bigint NOT NULL,
      at bigint NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (user_id, post_id)
    )`,
    `CREATE INDEX post_reads_user_seq ON post_reads (user_id, seq)`,
    `ALTER TABLE users ADD COLUMN auto_watch boolean NOT NULL DEFAULT true`,
  ],
  // 30: a watched post's replies collapse into one notification while it is unread (issue 62):
  // `count`, how many new replies it stands for; notifications_watching finds a member's unread one
  // of a post when the next reply comes.
  [
    `ALTER TABLE notifications ADD COLUMN count integer NOT NULL DEFAULT 1`,
    `CREATE INDEX notifications_watching ON notifications (user_id, post_id) WHERE kind = 'watching' AND read_at IS NULL`,
  ],
  // 31: signing in with your organisation (issue 63). A member linked to the OpenID provider carries
  // `oidc_subject` ("issuer subject", unique), the provider's refresh token and when it was last
  // checked (a member the provider no longer knows is signed out everywhere). Two-step verification:
  // the TOTP key, the last time step accepted (a code is never accepted twice) and since when it is on;
  // the recovery codes, hashed, each usable once. Passkeys: one row per WebAuthn credential.
  // auth_challenges: every short-lived, single-use secret of a sign-in in progress (an OIDC state with
  // its nonce and PKCE verifier, a WebAuthn challenge, a password accepted and awaiting its code, a
  // first sign-in awaiting its name), in the database so any instance of a cluster can finish it.
  // site_settings: the admin's settings that are no limit ("require two-step verification for staff").
  [
    `ALTER TABLE users ADD COLUMN oidc_subject text`,
    `CREATE UNIQUE INDEX users_oidc_subject ON users (oidc_subject) WHERE oidc_subject IS NOT NULL`,
    `ALTER TABLE users ADD COLUMN oidc_refresh_token text`,
    `ALTER TABLE users ADD COLUMN oidc_checked_at bigint`,
    `ALTER TABLE users ADD COLUMN totp_secret text`,
    `ALTER TABLE users ADD COLUMN totp_last_step bigint`,
    `ALTER TABLE users ADD COLUMN totp_enabled_at bigint`,
    `CREATE TABLE recovery_codes (
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at bigint,
      PRIMARY KEY (user_id, code_hash)
    )`,
    `CREATE TABLE passkeys (
      id text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      public_key text NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      transports text,
      name text NOT NULL,
      created_at bigint NOT NULL,
      last_used_at bigint
    )`,
    `CREATE INDEX passkeys_user ON passkeys (user_id)`,
    `CREATE TABLE auth_challenges (
      id text PRIMARY KEY,
      kind text NOT NULL,
      user_id bigint REFERENCES users (id) ON DELETE CASCADE,
      data text NOT NULL,
      expires_at bigint NOT NULL
    )`,
    `CREATE INDEX auth_challenges_expires ON auth_challenges (expires_at)`,
    `CREATE TABLE site_settings (name text PRIMARY KEY, value text NOT NULL)`,
  ],
  // 32: memberships the organisation's provider gave (issue 63, OIDC_GROUPS_CLAIM): `source` 'claim'
  // for a member the groups claim put in a group; NULL for an admin's. At each sign-in the claim takes
  // the member out of the groups it put them in and no longer lists; an admin's memberships stay.
  [`ALTER TABLE group_members ADD COLUMN source text`],
  // 33: likes at raw speed with the limits on (issue 64, item 3). ie_take is the token bucket of
  // server/lib/limits.ts in one statement: it takes `cost` tokens of the member's bucket (refilled
  // by the time since its last take, never backwards, never above its capacity) and answers NULL, or
  // takes nothing and answers how many tokens there are. The like batch takes, in the order the likes
  // came, each like's limits with it (`takes`: the push's own limits first when the like is a push of
  // its own, then the like's; the first refusal stops that like's takes): one commit for the likes and
  // their limits instead of one each. A like refused over a limit answers `slow_down` with the limit
  // (`slowed`) and the tokens it had (`have`) and changes nothing else; a like already recorded takes
  // none of the like's limits (it answers duplicate). The rows stay locked until the batch commits, so
  // two instances never both take the last token. Likes without `takes` (an older instance) take none.
  [
    `CREATE FUNCTION ie_take(p_key text, p_name text, p_capacity float8, p_now bigint, p_cost float8, p_rate float8)
    RETURNS float8 LANGUAGE plpgsql AS $$
    DECLARE v_have float8;
    BEGIN
      INSERT INTO rate_buckets AS b (key, name, tokens, at) VALUES (p_key, p_name, p_capacity - p_cost, p_now)
      ON CONFLICT (key, name) DO UPDATE
        SET tokens = least(p_capacity, b.tokens + greatest(p_now - b.at, 0) * p_rate) - p_cost, at = greatest(b.at, p_now)
        WHERE least(p_capacity, b.tokens + greatest(p_now - b.at, 0) * p_rate) >= p_cost;
      IF FOUND THEN RETURN NULL; END IF;
      SELECT least(p_capacity, b.tokens + greatest(p_now - b.at, 0) * p_rate) INTO v_have
      FROM rate_buckets b WHERE b.key = p_key AND b.name = p_name;
      RETURN coalesce(v_have, 0);
    END $$`,
    `DROP FUNCTION ie_like_batch(jsonb)`,
    `CREATE FUNCTION ie_like_batch(p_ops jsonb)
    RETURNS TABLE (op_id uuid, code text, post jsonb, slowed text, have float8) LANGUAGE plpgsql AS $$
    DECLARE v_seq bigint; v_first bigint; v_public boolean; v_payload text;
      v_like jsonb; v_take jsonb; v_id uuid; v_have float8;
      v_held uuid[] := '{}'; v_names text[] := '{}'; v_haves float8[] := '{}';
    BEGIN
      SELECT change_head.seq INTO v_seq FROM change_head FOR UPDATE;
      v_first := v_seq;
      FOR v_like IN SELECT e FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord) ORDER BY ord LOOP
        v_id := (v_like->>'id')::uuid;
        FOR v_take IN SELECT e FROM jsonb_array_elements(coalesce(v_like->'takes', '[]')) WITH ORDINALITY AS t(e, ord) ORDER BY ord LOOP
          CONTINUE WHEN NOT coalesce((v_take->>'request')::boolean, false) AND EXISTS (SELECT 1 FROM ops o WHERE o.id = v_id);
          v_have := ie_take(v_take->>'key', v_take->>'name', (v_take->>'capacity')::float8, (v_take->>'now')::bigint,
            (v_take->>'cost')::float8, (v_take->>'rate')::float8);
          IF v_have IS NOT NULL THEN
            v_held := v_held || v_id;
            v_names := v_names || (v_take->>'name');
            v_haves := v_haves || v_have;
            EXIT;
          END IF;
        END LOOP;
      END LOOP;
      RETURN QUERY
      WITH everything AS (
        SELECT (e->>'id')::uuid AS id, (e->>'user')::bigint AS uid, (e->>'post')::bigint AS pid, (e->>'count')::bigint AS n,
          (e->>'admin')::boolean AS adm, e->>'email' AS email, ord
        FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS t(e, ord)
      ), input AS (
        SELECT * FROM everything x WHERE x.id <> ALL (v_held)
      ), seen AS (
        SELECT i.id, i.pid,
          (i.adm OR NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = p.category AND c.see_groups IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM group_members g WHERE g.user_id = i.uid AND g.in_group AND g.group_id = ANY(c.see_groups)))) AS sees,
          p.status = 'approved' AS approved, (i.adm OR p.author_email = i.email) AS own
        FROM input i JOIN posts p ON p.id = i.pid
      ), allowed AS (
        SELECT s.id, s.pid FROM seen s WHERE s.sees AND s.approved
      ), likable AS (
        SELECT p.id, v_seq + dense_rank() OVER (ORDER BY p.id) AS seq
        FROM posts p WHERE p.id IN (SELECT pid FROM allowed)
      ), claimed AS (
        INSERT INTO ops (id, user_id, post_id, seq)
        SELECT i.id, i.uid, i.pid, l.seq FROM input i JOIN likable l ON l.id = i.pid WHERE i.id IN (SELECT id FROM allowed)
        ON CONFLICT (id) DO NOTHING RETURNING ops.id, ops.post_id
      ), updated AS (
        UPDATE posts p SET likes = p.likes + s.total, seq = l.seq
        FROM (SELECT c.post_id, sum(i.n) AS total FROM claimed c JOIN input i ON i.id = c.id GROUP BY c.post_id) s
        JOIN likable l ON l.id = s.post_id
        WHERE p.id = s.post_id RETURNING p.*
      )
      SELECT i.id,
        CASE WHEN h.hid IS NOT NULL THEN 'slow_down'
             WHEN c.id IS NOT NULL THEN NULL
             WHEN i.id IN (SELECT id FROM allowed) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM ops o WHERE o.id = i.id) THEN 'duplicate'
             WHEN EXISTS (SELECT 1 FROM seen s WHERE s.id = i.id AND s.sees AND (s.approved OR s.own)) THEN 'not_approved'
             ELSE 'not_found' END,
        CASE WHEN c.id IS NOT NULL THEN (SELECT to_jsonb(u) FROM updated u WHERE u.id = i.pid) END,
        h.hname, h.hhave
      FROM everything i LEFT JOIN claimed c ON c.id = i.id
        LEFT JOIN unnest(v_held, v_names, v_haves) AS h(hid, hname, hhave) ON h.hid = i.id
      ORDER BY i.ord;
      -- The posts updated above carry numbers above v_seq (no other post can: the head's row lock is
      -- held); the numbers of posts whose likes were all duplicates stay unused, a gap pulls skip.
      SELECT max(p.seq) INTO v_seq FROM posts p WHERE p.seq > v_seq;
      IF v_seq IS NOT NULL THEN
        UPDATE change_head SET seq = v_seq;
        -- Who may see the liked posts (server/db/sync/audience.ts): everyone when one of them is in a
        -- category everyone sees; else the admins, their categories' groups and their authors.
        SELECT coalesce(bool_or(c.see_groups IS NULL), true) INTO v_public
        FROM posts p LEFT JOIN categories c ON c.id = p.category WHERE p.seq > v_first;
        v_payload := v_seq::text;
        IF NOT v_public THEN
          v_payload := v_seq::text || ' a'
            || coalesce(' g:' || (SELECT string_agg(DISTINCT g, ',') FROM posts p JOIN categories c ON c.id = p.category
                 CROSS JOIN LATERAL unnest(c.see_groups) g WHERE p.seq > v_first AND g ~ '^[A-Za-z0-9_-]+$'), '')
            || coalesce(' u:' || (SELECT string_agg(DISTINCT u.id::text, ',') FROM posts p JOIN users u ON u.email = p.author_email
                 WHERE p.seq > v_first), '');
          IF length(v_payload) > 7000 THEN v_payload := v_seq::text; END IF;
        END IF;
        PERFORM pg_notify('ie_changes', v_payload);
      END IF;
    END $$`,
  ],
  // 34: the categories an approved post was moved out of (an attack test, 2026-12-05): a moved post's
  // tombstone goes only to who could see it in one of them (they may hold it), not to everyone who
  // cannot see it where it is now (that told members outside a private space its id and when it
  // changed). NULL on a post moved before this migration: its tombstone keeps going to everyone who
  // cannot see it. A deleted post keeps whether it was moved or hidden, and from where, so that a
  // device offline across the move (or the hide) and the deletion still drops it.
  [
    `ALTER TABLE posts ADD COLUMN moved_from text[]`,
    `ALTER TABLE deleted_posts ADD COLUMN moved boolean NOT NULL DEFAULT false`,
    `ALTER TABLE deleted_posts ADD COLUMN hidden_at bigint`,
    `ALTER TABLE deleted_posts ADD COLUMN moved_from text[]`,
  ],
  // 35: where a flagged conversation ends for the admins, as a change number: the last message's
  // when it was flagged. The flag's time (the server's clock, to the millisecond) listed a message
  // written in the same millisecond, and across instances whose clocks differ it could be off by the
  // difference. NULL on an older flag: its time still ends it.
  [`ALTER TABLE message_flags ADD COLUMN upto_seq bigint`],
  // 36: the notifications by post: an edit that retitles a post rewrites the title they name, and a
  // post seen again sends them again (SqlStore.updatePost), under the change head's lock: never a
  // scan of every notification. And an admin's removal from a group stands against the organisation's
  // groups claim (source 'admin', groups/claimed-groups.ts): a removal made before it, whose source
  // is NULL (the claim's own are 'claim'), is the admin's.
  [
    `CREATE INDEX notifications_post ON notifications (post_id)`,
    `UPDATE group_members SET source = 'admin' WHERE NOT in_group AND source IS NULL`,
  ],
  // 37: the members' own marks by post and by what they follow: a post seen again (approved after a
  // hide, moved back) or a category opened to more sends them again (SqlStore.bumpOwnMarks), under the
  // change head's lock: never a scan of every read position, saved post, level or flag.
  [
    `CREATE INDEX post_reads_post ON post_reads (post_id)`,
    `CREATE INDEX saved_posts_post ON saved_posts (post_id)`,
    `CREATE INDEX follows_target ON follows (kind, target)`,
    `CREATE INDEX flags_post ON flags (post_id)`,
  ],
];

/**
 * Applies the migrations not yet applied, in `tx` (the caller holds STARTUP_LOCK); returns how many
 * ran. `upTo` stops after that version (tests build a database as an older build left it).
 */
export async function migrate(tx: Sql, upTo = MIGRATIONS.length): Promise<number> {
  await tx.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((row) => Number(row.version)));
  let ran = 0;
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (applied.has(version) || version > upTo) continue;
    for (const statement of typeof sql === 'string' ? splitStatements(sql) : sql) await tx.query(statement);
    await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    ran += 1;
  }
  return ran;
}

/** Splits a migration on `;` at line ends (the extended protocol takes one statement at a time). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
