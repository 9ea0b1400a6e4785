/**
 * What the PostgreSQL store keeps in the database: the tables, the function that applies a unit of
 * the log (mock_apply), and the names and bounds the store and the schema share. Made once per
 * database by connectPostgres (postgres-stores.ts), under a lock, idempotently.
 */

/** The log keeps at least this many units per namespace; a replica further behind loads the records again. */
export const KEPT_UNITS = 4096;
/** Writes of one replica committed together at most. */
/** What follows the shared namespace in a session's: `default/session/<name>`. */
export const SESSIONS = '/session/';
/** A namespace removed whole ($1): its records, sequences, log and its row. */
export const DROP_NAMESPACE =
  'WITH records AS (DELETE FROM mock_records WHERE ns = $1), sequences AS (DELETE FROM mock_sequences WHERE ns = $1), changes AS (DELETE FROM mock_changes WHERE ns = $1) DELETE FROM mock_spaces WHERE ns = $1';
/**
 * Keys and scopes longer than this, in bytes, are indexed by a digest (mock_key in the schema), with
 * their text in a column beside: the primary key's index row holds about 2,700 bytes for the
 * namespace, the collection, the scope and the key together. Shorter ones are indexed as they are.
 */
export const INDEXED_BYTES = 1024;
/** Key space of the advisory locks (`pg_advisory_xact_lock(LOCK_SPACE, the namespace's hash)`): 'mock' in ASCII. */
export const LOCK_SPACE = 0x6d6f636b;

/** The tables and the function that applies a unit of changes, made once per database (idempotent). */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS mock_spaces (ns text PRIMARY KEY, epoch bigint NOT NULL, horizon bigint NOT NULL DEFAULT 0, collections text NOT NULL);
-- When a namespace was last written (or, for a session's, read): the least recently used sessions go first.
ALTER TABLE mock_spaces ADD COLUMN IF NOT EXISTS touched timestamptz NOT NULL DEFAULT now();
-- s and k hold a scope and a key as mock_key gives them; s_full and k_full the text of one mock_key shortened (else null).
CREATE TABLE IF NOT EXISTS mock_records (ns text NOT NULL, c text NOT NULL, s text NOT NULL, k text NOT NULL, position bigint NOT NULL, body jsonb, raw text, s_full text, k_full text, PRIMARY KEY (ns, c, s, k));
CREATE INDEX IF NOT EXISTS mock_records_order ON mock_records (ns, c, s, position);
CREATE TABLE IF NOT EXISTS mock_sequences (ns text NOT NULL, c text NOT NULL, s text NOT NULL, next bigint NOT NULL, s_full text, PRIMARY KEY (ns, c, s));
CREATE TABLE IF NOT EXISTS mock_changes (ns text NOT NULL, seq bigint NOT NULL, entries text NOT NULL, PRIMARY KEY (ns, seq));
CREATE SEQUENCE IF NOT EXISTS mock_seq;
CREATE SEQUENCE IF NOT EXISTS mock_position;
-- A key or a scope as the indexes hold it: itself up to ${INDEXED_BYTES} bytes; past that (an index row holds about 2,700)
-- U+0001, "#" and its SHA-256 in hex, which no shorter one is (postgres-text.ts writes any that begins with U+0001 as U+0001 and a JSON string).
-- STABLE, as convert_to is: only then is it inlined into the statements that use it (IMMUTABLE, it was called, and mock_apply took 27% longer).
CREATE OR REPLACE FUNCTION mock_key(p_text text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $f$
  SELECT CASE WHEN octet_length(p_text) <= ${INDEXED_BYTES} THEN p_text ELSE chr(1) || '#' || encode(sha256(convert_to(p_text, 'UTF8')), 'hex') END
$f$;
-- A database made before s_full and k_full: the columns added, and its keys and scopes past that length (it stored them as they were) put in that form, once.
DO $m$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'mock_records'::regclass AND attname = 'k_full' AND NOT attisdropped) THEN
    ALTER TABLE mock_records ADD COLUMN IF NOT EXISTS s_full text, ADD COLUMN IF NOT EXISTS k_full text;
    ALTER TABLE mock_sequences ADD COLUMN IF NOT EXISTS s_full text;
    UPDATE mock_records SET s = mock_key(s), s_full = nullif(s, mock_key(s)), k = mock_key(k), k_full = nullif(k, mock_key(k))
      WHERE octet_length(s) > ${INDEXED_BYTES} OR octet_length(k) > ${INDEXED_BYTES};
    UPDATE mock_sequences SET s = mock_key(s), s_full = s WHERE octet_length(s) > ${INDEXED_BYTES};
  END IF;
END $m$;
CREATE OR REPLACE FUNCTION mock_next(p_ns text, p_c text, p_s text, p_next numeric) RETURNS void LANGUAGE sql AS $f$
  INSERT INTO mock_sequences (ns, c, s, s_full, next) VALUES (p_ns, p_c, mock_key(p_s), nullif(p_s, mock_key(p_s)), p_next)
  ON CONFLICT (ns, c, s) DO UPDATE SET next = greatest(mock_sequences.next, excluded.next);
$f$;
CREATE OR REPLACE FUNCTION mock_apply(p_ns text, p_unit text) RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE
  -- sc and v_k: the scope and the key as given; v_si and v_ki: as the indexes hold them (mock_key).
  e record; sc text; v_si text; v_k text; v_ki text; v_next numeric; v_seq bigint; v_cut bigint;
  -- The key sequences the unit moves, written once at its end: ["collection","scope"] -> next.
  v_seqs jsonb := '{}'; v_at text;
BEGIN
  v_seq := nextval('mock_seq');
  INSERT INTO mock_changes (ns, seq, entries) VALUES (p_ns, v_seq, p_unit);
  -- The unit parsed once (json_to_recordset), not once per field read: the key kept as json, so its text is what was sent.
  FOR e IN SELECT x.op, x.c, x.s, x.k, x.r, x.raw, x.n FROM ROWS FROM (json_to_recordset(p_unit::json) AS (op text, c text, s text, k json, r json, raw text, n numeric)) WITH ORDINALITY AS x(op, c, s, k, r, raw, n, i) ORDER BY x.i LOOP
    sc := coalesce(e.s, '');
    v_si := mock_key(sc);
    IF e.op = 'put' THEN
      v_k := CASE WHEN json_typeof(e.k) = 'string' THEN e.k #>> '{}' ELSE e.k::text END;
      v_ki := mock_key(v_k);
      -- A record holding what jsonb cannot (NUL, a lone surrogate) comes as its JSON text (postgres-text.ts) and is kept so.
      INSERT INTO mock_records (ns, c, s, k, position, body, raw, s_full, k_full)
        VALUES (p_ns, e.c, v_si, v_ki, nextval('mock_position'), CASE WHEN e.raw IS NULL THEN e.r::jsonb END, e.raw, nullif(sc, v_si), nullif(v_k, v_ki))
        ON CONFLICT (ns, c, s, k) DO UPDATE SET body = excluded.body, raw = excluded.raw;
      IF json_typeof(e.k) = 'number' THEN
        -- Kept in v_seqs until the end of the unit: one statement per sequence, not one per record.
        v_next := v_k::numeric + 1;
        v_at := json_build_array(e.c, '')::text;
        v_seqs := v_seqs || jsonb_build_object(v_at, greatest(v_next, (v_seqs->>v_at)::numeric));
        IF sc <> '' THEN
          v_at := json_build_array(e.c, sc)::text;
          v_seqs := v_seqs || jsonb_build_object(v_at, greatest(v_next, (v_seqs->>v_at)::numeric));
        END IF;
      END IF;
    ELSIF e.op = 'del' THEN
      v_k := CASE WHEN json_typeof(e.k) = 'string' THEN e.k #>> '{}' ELSE e.k::text END;
      DELETE FROM mock_records WHERE ns = p_ns AND c = e.c AND s = v_si AND k = mock_key(v_k);
    ELSIF e.op = 'drop' THEN
      DELETE FROM mock_records WHERE ns = p_ns AND c = e.c AND s = v_si;
      DELETE FROM mock_sequences WHERE ns = p_ns AND c = e.c AND s = v_si AND sc <> '';
      IF sc <> '' THEN v_seqs := v_seqs - json_build_array(e.c, sc)::text; END IF;
    ELSIF e.op = 'clear' THEN
      DELETE FROM mock_records WHERE ns = p_ns AND c = e.c;
      DELETE FROM mock_sequences WHERE ns = p_ns AND c = e.c;
      -- What the unit moved before the clear is gone with it.
      v_seqs := v_seqs - ARRAY(SELECT k FROM jsonb_object_keys(v_seqs) AS k WHERE (k::jsonb)->>0 = e.c);
    ELSIF e.op = 'next' THEN
      PERFORM mock_next(p_ns, e.c, sc, e.n);
    END IF;
  END LOOP;
  INSERT INTO mock_sequences (ns, c, s, s_full, next)
    SELECT p_ns, x.c, mock_key(x.s), nullif(x.s, mock_key(x.s)), x.v
    FROM (SELECT (k::jsonb)->>0 AS c, (k::jsonb)->>1 AS s, v::numeric AS v FROM jsonb_each_text(v_seqs) AS y(k, v)) AS x
    ON CONFLICT (ns, c, s) DO UPDATE SET next = greatest(mock_sequences.next, excluded.next);
  IF v_seq % 256 = 0 THEN
    SELECT c.seq INTO v_cut FROM mock_changes c WHERE c.ns = p_ns ORDER BY c.seq DESC OFFSET ${KEPT_UNITS} LIMIT 1;
    IF v_cut IS NOT NULL THEN
      DELETE FROM mock_changes c WHERE c.ns = p_ns AND c.seq <= v_cut;
      UPDATE mock_spaces SET horizon = v_cut WHERE ns = p_ns;
    END IF;
  END IF;
  UPDATE mock_spaces SET touched = now() WHERE ns = p_ns;
  RETURN v_seq;
END
$f$;
`;
