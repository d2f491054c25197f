-- The review schema, version 1: tables, append-only triggers and row security.
--
-- Run by the coordinator (the database's owner) through `review publish`, inside the
-- migration's transaction. Every table is append-only for every role, the owner
-- included (triggers refuse UPDATE, DELETE and TRUNCATE). Row security is enabled and
-- forced on every table: the owner's own policy ("owner_all", TO CURRENT_USER, i.e. the
-- role running this file) lets the schema's SECURITY DEFINER functions, which run as the
-- owner, read and append; the few tables a reviewer may read directly (their own queue's
-- questions and options, their own assignments, verdicts, revisions and releases) add a
-- policy on session_user. Nobody else is granted anything here: `review publish` grants
-- USAGE, SELECT and EXECUTE to the review's two group roles, and nothing more.

CREATE SCHEMA ai4hse_review;
REVOKE ALL ON SCHEMA ai4hse_review FROM PUBLIC;

CREATE TABLE ai4hse_review.schema_version (
    version integer PRIMARY KEY CHECK (version >= 1),
    applied_at timestamptz NOT NULL DEFAULT now(),
    applied_by text NOT NULL DEFAULT session_user,
    desk_version text NOT NULL
);

-- One row per `review publish`: which audit file, by whom, what was copied.
CREATE TABLE ai4hse_review.publications (
    publication_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    published_at timestamptz NOT NULL DEFAULT now(),
    published_by text NOT NULL DEFAULT session_user,
    audit_sha256 text NOT NULL CHECK (audit_sha256 ~ '^[0-9a-f]{64}$'),
    audit_name text NOT NULL,
    responses text NOT NULL CHECK (responses IN ('none', 'selections', 'full')),
    questions_added integer NOT NULL CHECK (questions_added >= 0)
);

-- Who takes part, as published: each LOGIN role as a reviewer and/or an adjudicator.
CREATE TABLE ai4hse_review.members (
    role_name text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('reviewer', 'adjudicator')),
    publication_id uuid NOT NULL REFERENCES ai4hse_review.publications,
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (role_name, kind)
);

CREATE TABLE ai4hse_review.questions (
    question_id text PRIMARY KEY,
    ordinal integer NOT NULL,
    text text NOT NULL,
    publication_id uuid NOT NULL REFERENCES ai4hse_review.publications
);
CREATE INDEX questions_ordinal ON ai4hse_review.questions (ordinal, question_id);

CREATE TABLE ai4hse_review.options (
    question_id text NOT NULL REFERENCES ai4hse_review.questions,
    position integer NOT NULL CHECK (position >= 0),
    text text NOT NULL,
    PRIMARY KEY (question_id, position)
);

-- The official answer keys: never readable by a reviewer except through the functions.
CREATE TABLE ai4hse_review.keys (
    question_id text PRIMARY KEY REFERENCES ai4hse_review.questions,
    key boolean[] NOT NULL CHECK (array_ndims(key) = 1)
);

CREATE TABLE ai4hse_review.runs (
    run_id text PRIMARY KEY,
    model text NOT NULL,
    track text NOT NULL,
    protocol_version integer NOT NULL
);

-- The runs' attempts on the published questions: the desk's extracted selection and,
-- with `--responses full`, the raw response (NULL otherwise).
CREATE TABLE ai4hse_review.attempts (
    attempt_id bigint PRIMARY KEY,
    run_id text NOT NULL REFERENCES ai4hse_review.runs,
    question_id text NOT NULL REFERENCES ai4hse_review.questions,
    repetition integer NOT NULL,
    status text NOT NULL,
    selection boolean[],
    strict_format boolean,
    response text
);
CREATE INDEX attempts_question ON ai4hse_review.attempts (question_id, run_id, repetition);

-- Plans: the newest is in force. A later publication's plan keeps every earlier
-- question's reviewers and position and appends the new questions.
CREATE TABLE ai4hse_review.plans (
    plan_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    created_at timestamptz NOT NULL UNIQUE,
    created_by text NOT NULL DEFAULT session_user,
    per_question integer NOT NULL CHECK (per_question >= 1),
    plan_order text NOT NULL CHECK (plan_order IN ('corpus', 'random', 'keyaudit')),
    seed integer,
    reviewers text[] NOT NULL,
    questions integer NOT NULL,
    audit_sha256 text NOT NULL,
    publication_id uuid NOT NULL REFERENCES ai4hse_review.publications
);

CREATE TABLE ai4hse_review.assignments (
    plan_id uuid NOT NULL REFERENCES ai4hse_review.plans,
    question_id text NOT NULL REFERENCES ai4hse_review.questions,
    reviewer text NOT NULL,
    position integer NOT NULL,
    PRIMARY KEY (plan_id, question_id, reviewer)
);
CREATE INDEX assignments_queue ON ai4hse_review.assignments (plan_id, reviewer, position);
CREATE INDEX assignments_reviewer ON ai4hse_review.assignments (reviewer, question_id);

-- One verdict per (question, reviewer), never changed; its values live in its revisions.
CREATE TABLE ai4hse_review.verdicts (
    verdict_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    question_id text NOT NULL REFERENCES ai4hse_review.questions,
    reviewer text NOT NULL,
    created_at timestamptz NOT NULL,
    audit_sha256 text NOT NULL,
    UNIQUE (question_id, reviewer)
);
CREATE INDEX verdicts_reviewer ON ai4hse_review.verdicts (reviewer);

CREATE TABLE ai4hse_review.verdict_revisions (
    revision_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    verdict_id uuid NOT NULL REFERENCES ai4hse_review.verdicts,
    reviewer text NOT NULL,
    at timestamptz NOT NULL,
    action text NOT NULL CHECK (action IN ('create', 'edit', 'submit')),
    blind text NOT NULL CHECK (blind IN ('blind', 'not_blind')),
    blind_answer text[],
    blind_at timestamptz NOT NULL,
    verdict text CHECK (verdict IN ('key_ok', 'key_wrong', 'multiple_defensible',
        'no_correct_option', 'unclear_question', 'unclear_options',
        'outdated_or_jurisdiction', 'typo_or_format', 'other')),
    proposed_key text[],
    confidence text CHECK (confidence IN ('low', 'medium', 'high')),
    source text NOT NULL,
    note text NOT NULL,
    state text NOT NULL CHECK (state IN ('draft', 'submitted')),
    request_id uuid UNIQUE,
    CHECK ((blind = 'blind') = (blind_answer IS NOT NULL)),
    CHECK (state = 'draft' OR verdict IS NOT NULL),
    CHECK (verdict IS DISTINCT FROM 'key_wrong' OR proposed_key IS NOT NULL)
);
-- A verdict's latest revision, and its state without a visit to the table.
CREATE INDEX verdict_revisions_latest
    ON ai4hse_review.verdict_revisions (verdict_id, at DESC, revision_id DESC) INCLUDE (state);
CREATE INDEX verdict_revisions_reviewer ON ai4hse_review.verdict_revisions (reviewer);

CREATE TABLE ai4hse_review.decisions (
    decision_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    question_id text NOT NULL UNIQUE REFERENCES ai4hse_review.questions,
    created_at timestamptz NOT NULL,
    audit_sha256 text NOT NULL
);

CREATE TABLE ai4hse_review.decision_revisions (
    revision_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    decision_id uuid NOT NULL REFERENCES ai4hse_review.decisions,
    adjudicator text NOT NULL,
    at timestamptz NOT NULL,
    decision text NOT NULL CHECK (decision IN ('key_confirmed', 'key_corrected',
        'question_excluded', 'unresolved')),
    corrected_key text[],
    note text NOT NULL,
    request_id uuid UNIQUE,
    CHECK ((decision = 'key_corrected') = (corrected_key IS NOT NULL))
);
CREATE INDEX decision_revisions_latest
    ON ai4hse_review.decision_revisions (decision_id, at DESC, revision_id DESC);

-- What the functions released to whom, first time each, with the server's time:
-- 'question' (text and options shown), 'key' (key, selections, responses after the
-- blind answer), 'verdicts' (other reviewers' verdicts after one's own was submitted),
-- 'adjudication' (the question's verdicts and key to an adjudicator).
CREATE TABLE ai4hse_review.releases (
    question_id text NOT NULL REFERENCES ai4hse_review.questions,
    role_name text NOT NULL,
    what text NOT NULL CHECK (what IN ('question', 'key', 'verdicts', 'adjudication')),
    released_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (question_id, role_name, what)
);

-- Every read of the whole review (collect, the report), with the server's time.
CREATE TABLE ai4hse_review.whole_reads (
    role_name text NOT NULL DEFAULT session_user,
    read_at timestamptz NOT NULL DEFAULT now()
);

-- History is append-only for every role, the owner included.
CREATE FUNCTION ai4hse_review.refuse_change() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION 'ai4hse_review.%: % refused; the review''s history is append-only (nothing is ever changed or deleted)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
REVOKE ALL ON FUNCTION ai4hse_review.refuse_change() FROM PUBLIC;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['schema_version', 'publications', 'members', 'questions',
        'options', 'keys', 'runs', 'attempts', 'plans', 'assignments', 'verdicts',
        'verdict_revisions', 'decisions', 'decision_revisions', 'releases', 'whole_reads']
    LOOP
        EXECUTE format('CREATE TRIGGER append_only BEFORE UPDATE OR DELETE ON ai4hse_review.%I '
                       'FOR EACH ROW EXECUTE FUNCTION ai4hse_review.refuse_change()', t);
        EXECUTE format('CREATE TRIGGER append_only_truncate BEFORE TRUNCATE ON ai4hse_review.%I '
                       'FOR EACH STATEMENT EXECUTE FUNCTION ai4hse_review.refuse_change()', t);
        EXECUTE format('ALTER TABLE ai4hse_review.%I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE ai4hse_review.%I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY owner_all ON ai4hse_review.%I TO CURRENT_USER '
                       'USING (true) WITH CHECK (true)', t);
        EXECUTE format('REVOKE ALL ON ai4hse_review.%I FROM PUBLIC', t);
    END LOOP;
END
$$;

-- What a reviewer may read directly (SELECT is granted to the reviewer group only on
-- these tables; the policies limit the rows to their own).
CREATE POLICY own_queue ON ai4hse_review.questions FOR SELECT USING (EXISTS (
    SELECT 1 FROM ai4hse_review.assignments a
    WHERE a.question_id = questions.question_id AND a.reviewer = session_user));
CREATE POLICY own_queue ON ai4hse_review.options FOR SELECT USING (EXISTS (
    SELECT 1 FROM ai4hse_review.assignments a
    WHERE a.question_id = options.question_id AND a.reviewer = session_user));
CREATE POLICY own_rows ON ai4hse_review.assignments FOR SELECT
    USING (reviewer = session_user);
CREATE POLICY own_rows ON ai4hse_review.verdicts FOR SELECT
    USING (reviewer = session_user);
CREATE POLICY own_rows ON ai4hse_review.verdict_revisions FOR SELECT
    USING (reviewer = session_user);
CREATE POLICY own_rows ON ai4hse_review.releases FOR SELECT
    USING (role_name = session_user);
CREATE POLICY everyone ON ai4hse_review.schema_version FOR SELECT USING (true);
