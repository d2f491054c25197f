-- The review schema, version 2: the functions, the only way anyone but the owner reads a
-- key, a run's selection or response, or another reviewer's verdict, and the only way
-- anyone but the owner writes.
--
-- Every function has a pinned search_path (pg_catalog first, then this schema, the
-- temporary schema last) and names every object with its schema, so that nothing a
-- caller puts on their own search_path is ever used. The callable ones (the "API"
-- section) are SECURITY DEFINER: they run as the owner, take the caller's identity from
-- session_user (set by the server at login, never by the client) and every time from
-- now(). EXECUTE is revoked from PUBLIC on every function; `review publish` grants the
-- API to the review's group roles.
--
-- Refusals raise SQLSTATE 42501 (insufficient_privilege: a wall) or 22023
-- (invalid_parameter_value: a bad value) with a one-line message the desk shows as is.

-- == helpers (not callable by reviewers or adjudicators) ==============================

CREATE FUNCTION ai4hse_review.iso(t timestamptz) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $$;

CREATE FUNCTION ai4hse_review.verdict_names() RETURNS text[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT ARRAY['key_ok', 'key_wrong', 'multiple_defensible', 'no_correct_option',
    'unclear_question', 'unclear_options', 'outdated_or_jurisdiction', 'typo_or_format',
    'other'] $$;

CREATE FUNCTION ai4hse_review.plan_in_force() RETURNS uuid
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT p.plan_id FROM ai4hse_review.plans p ORDER BY p.created_at DESC LIMIT 1 $$;

CREATE FUNCTION ai4hse_review.is_owner(who text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT coalesce(who = pg_catalog.pg_get_userbyid(n.nspowner), false)
      FROM pg_catalog.pg_namespace n WHERE n.nspname = 'ai4hse_review' $$;

CREATE FUNCTION ai4hse_review.is_member(who text, member_kind text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM ai4hse_review.members m
                     WHERE m.role_name = who AND m.kind = member_kind) $$;

-- Assigned to `who` by the plan in force.
CREATE FUNCTION ai4hse_review.assigned(q text, who text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM ai4hse_review.assignments a
                     WHERE a.plan_id = ai4hse_review.plan_in_force()
                       AND a.question_id = q AND a.reviewer = who) $$;

-- One of the question's reviewers: assigned by any plan, or with a verdict on it.
CREATE FUNCTION ai4hse_review.reviewed_by(q text, who text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM ai4hse_review.assignments a
                     WHERE a.question_id = q AND a.reviewer = who)
          OR EXISTS (SELECT 1 FROM ai4hse_review.verdicts v
                     WHERE v.question_id = q AND v.reviewer = who) $$;

CREATE FUNCTION ai4hse_review.decided_by(q text, who text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM ai4hse_review.decisions d
                     JOIN ai4hse_review.decision_revisions r ON r.decision_id = d.decision_id
                     WHERE d.question_id = q AND r.adjudicator = who) $$;

-- Serialises the writes on one question: verdicts share it, a decision holds it alone.
CREATE FUNCTION ai4hse_review.lock_question(q text, exclusive boolean) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
BEGIN
    IF exclusive THEN
        PERFORM pg_catalog.pg_advisory_xact_lock(
            pg_catalog.hashtextextended('ai4hse_review:question:' || q, 0));
    ELSE
        PERFORM pg_catalog.pg_advisory_xact_lock_shared(
            pg_catalog.hashtextextended('ai4hse_review:question:' || q, 0));
    END IF;
END
$$;

-- A blind answer or key: one TRUE / FALSE (/ UNSURE) per option; returned 1-based.
CREATE FUNCTION ai4hse_review.check_list(a text[], n integer, unsure boolean, what text)
RETURNS text[] LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    allowed text[] := CASE WHEN unsure THEN ARRAY['TRUE', 'FALSE', 'UNSURE']
                           ELSE ARRAY['TRUE', 'FALSE'] END;
    items text[];
BEGIN
    IF a IS NULL THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.cardinality(a) > 0 AND pg_catalog.array_ndims(a) <> 1 THEN
        RAISE EXCEPTION '% must be a list of TRUE/FALSE values', what USING ERRCODE = '22023';
    END IF;
    items := ARRAY(SELECT u.x FROM pg_catalog.unnest(a) WITH ORDINALITY AS u(x, i) ORDER BY u.i);
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(items) AS u(x)
               WHERE u.x IS NULL OR NOT (u.x = ANY (allowed))) THEN
        RAISE EXCEPTION '% holds a value other than %', what,
            pg_catalog.array_to_string(allowed, ', ') USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.cardinality(items) <> n THEN
        RAISE EXCEPTION '% has % values, but the question has % options',
            what, pg_catalog.cardinality(items), n USING ERRCODE = '22023';
    END IF;
    RETURN items;
END
$$;

CREATE FUNCTION ai4hse_review.check_text(t text, what text, longest integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
BEGIN
    IF pg_catalog.length(coalesce(t, '')) > longest THEN
        RAISE EXCEPTION '% is limited to % characters, this one has %',
            what, longest, pg_catalog.length(t) USING ERRCODE = '22023';
    END IF;
    RETURN coalesce(t, '');
END
$$;

CREATE FUNCTION ai4hse_review.release(q text, who text, released text) RETURNS void
LANGUAGE sql SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ INSERT INTO ai4hse_review.releases (question_id, role_name, what)
      VALUES (q, who, released) ON CONFLICT DO NOTHING $$;

-- Every verdict with its latest revision (owner only: no grant).
CREATE VIEW ai4hse_review.current_verdicts AS
SELECT v.verdict_id, v.question_id, v.reviewer, v.created_at, v.audit_sha256,
       r.revision_id, r.at, r.action, r.blind, r.blind_answer, r.blind_at, r.verdict,
       r.proposed_key, r.confidence, r.source, r.note, r.state
FROM ai4hse_review.verdicts v
CROSS JOIN LATERAL (
    SELECT x.* FROM ai4hse_review.verdict_revisions x
    WHERE x.verdict_id = v.verdict_id
    ORDER BY x.at DESC, x.revision_id DESC LIMIT 1) r;
REVOKE ALL ON ai4hse_review.current_verdicts FROM PUBLIC;

-- Every decision with its latest revision (owner only: no grant).
CREATE VIEW ai4hse_review.current_decisions AS
SELECT d.decision_id, d.question_id, d.created_at, d.audit_sha256,
       r.revision_id, r.adjudicator, r.at, r.decision, r.corrected_key, r.note
FROM ai4hse_review.decisions d
CROSS JOIN LATERAL (
    SELECT x.* FROM ai4hse_review.decision_revisions x
    WHERE x.decision_id = d.decision_id
    ORDER BY x.at DESC, x.revision_id DESC LIMIT 1) r;
REVOKE ALL ON ai4hse_review.current_decisions FROM PUBLIC;

CREATE FUNCTION ai4hse_review.verdict_json(c ai4hse_review.current_verdicts) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.jsonb_build_object(
    'verdict_id', c.verdict_id, 'question_id', c.question_id, 'reviewer', c.reviewer,
    'state', c.state, 'verdict', c.verdict, 'blind', c.blind = 'blind',
    'blind_answer', pg_catalog.to_jsonb(c.blind_answer),
    'blind_at', ai4hse_review.iso(c.blind_at),
    'proposed_key', pg_catalog.to_jsonb(c.proposed_key), 'confidence', c.confidence,
    'source', c.source, 'note', c.note, 'created_at', ai4hse_review.iso(c.created_at),
    'updated_at', ai4hse_review.iso(c.at)) $$;

CREATE FUNCTION ai4hse_review.decision_json(c ai4hse_review.current_decisions) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.jsonb_build_object(
    'decision_id', c.decision_id, 'question_id', c.question_id, 'decision', c.decision,
    'key', (SELECT pg_catalog.jsonb_agg(k.x = 'TRUE' ORDER BY k.i)
            FROM pg_catalog.unnest(c.corrected_key) WITH ORDINALITY AS k(x, i)),
    'adjudicator', c.adjudicator, 'note', c.note, 'at', ai4hse_review.iso(c.at)) $$;

CREATE FUNCTION ai4hse_review.my_verdict_json(q text, who text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT ai4hse_review.verdict_json(c) FROM ai4hse_review.current_verdicts c
      WHERE c.question_id = q AND c.reviewer = who $$;

-- The submitted verdicts on a question (all, or all but `but`'s), reviewers in name order.
CREATE FUNCTION ai4hse_review.submitted_json(q text, but text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT coalesce(pg_catalog.jsonb_agg(ai4hse_review.verdict_json(c)
                                           ORDER BY c.reviewer COLLATE "C"), '[]'::jsonb)
      FROM ai4hse_review.current_verdicts c
      WHERE c.question_id = q AND c.state = 'submitted' AND c.reviewer IS DISTINCT FROM but $$;

CREATE FUNCTION ai4hse_review.latest_decision_json(q text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT ai4hse_review.decision_json(c) FROM ai4hse_review.current_decisions c
      WHERE c.question_id = q $$;

-- cli.md: the submitted verdicts differ in concern vs key_ok, in V or in proposed key,
-- or any says key_wrong.
CREATE FUNCTION ai4hse_review.needs_adjudication(q text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT coalesce(pg_catalog.bool_or(c.verdict = 'key_wrong'), false)
          OR count(DISTINCT c.verdict || '|' || coalesce(
                 pg_catalog.array_to_string(c.proposed_key, ','), '')) > 1
      FROM ai4hse_review.current_verdicts c
      WHERE c.question_id = q AND c.state = 'submitted' $$;

-- In the adjudication queue: needs adjudication, and undecided or decided `unresolved`.
CREATE FUNCTION ai4hse_review.in_queue(q text) RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT ai4hse_review.needs_adjudication(q)
         AND coalesce((SELECT c.decision = 'unresolved' FROM ai4hse_review.current_decisions c
                       WHERE c.question_id = q), true) $$;

-- Every question in the adjudication queue (set-based: the same rule as in_queue).
CREATE FUNCTION ai4hse_review.queue_questions() RETURNS TABLE (question_id text)
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT c.question_id FROM ai4hse_review.current_verdicts c
      WHERE c.state = 'submitted'
      GROUP BY c.question_id
      HAVING (pg_catalog.bool_or(c.verdict = 'key_wrong')
              OR count(DISTINCT c.verdict || '|' || coalesce(
                     pg_catalog.array_to_string(c.proposed_key, ','), '')) > 1)
         AND coalesce((SELECT d.decision = 'unresolved' FROM ai4hse_review.current_decisions d
                       WHERE d.question_id = c.question_id), true) $$;

CREATE FUNCTION ai4hse_review.question_json(q text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.jsonb_build_object(
    'question_id', x.question_id, 'ordinal', x.ordinal, 'text', x.text,
    'options', (SELECT coalesce(pg_catalog.jsonb_agg(o.text ORDER BY o.position), '[]'::jsonb)
                FROM ai4hse_review.options o WHERE o.question_id = x.question_id))
      FROM ai4hse_review.questions x WHERE x.question_id = q $$;

-- The key and each run's attempts on the question (selection, and the raw response
-- when it was published).
CREATE FUNCTION ai4hse_review.evidence_json(q text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.jsonb_build_object(
    'key', pg_catalog.to_jsonb(k.key),
    'runs', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                 'run_id', r.run_id, 'model', r.model, 'track', r.track,
                 'attempts', (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                         'attempt_id', a.attempt_id, 'repetition', a.repetition,
                         'status', a.status, 'selection', pg_catalog.to_jsonb(a.selection),
                         'correct', a.selection IS NOT NULL AND a.selection = k.key,
                         'strict_format', a.strict_format)
                     || CASE WHEN a.response IS NULL THEN '{}'::jsonb
                             ELSE pg_catalog.jsonb_build_object('response', a.response) END
                     ORDER BY a.repetition, a.attempt_id)
                     FROM ai4hse_review.attempts a
                     WHERE a.question_id = q AND a.run_id = r.run_id))
                 ORDER BY r.run_id COLLATE "C"), '[]'::jsonb)
             FROM ai4hse_review.runs r
             WHERE EXISTS (SELECT 1 FROM ai4hse_review.attempts a
                           WHERE a.question_id = q AND a.run_id = r.run_id)))
      FROM ai4hse_review.keys k WHERE k.question_id = q $$;

-- The reviewer's queue (plan in force) with the state of their own verdict on each
-- question (NULL: nothing recorded): one pass over the queue and their own verdicts,
-- each verdict's latest state read from the index alone.
CREATE FUNCTION ai4hse_review.queue_states(who text)
RETURNS TABLE (question_id text, queue_position integer, state text)
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT a.question_id, a.position, s.state
      FROM ai4hse_review.assignments a
      LEFT JOIN ai4hse_review.verdicts v ON v.question_id = a.question_id AND v.reviewer = who
      LEFT JOIN LATERAL (SELECT r.state FROM ai4hse_review.verdict_revisions r
                         WHERE r.verdict_id = v.verdict_id
                         ORDER BY r.at DESC, r.revision_id DESC LIMIT 1) s ON true
      WHERE a.plan_id = ai4hse_review.plan_in_force() AND a.reviewer = who $$;

CREATE FUNCTION ai4hse_review.progress_of(who text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.jsonb_build_object('assigned', n.assigned, 'submitted', n.submitted,
             'drafts', n.drafts, 'remaining', n.assigned - n.submitted)
      FROM (SELECT count(*) AS assigned,
                   count(*) FILTER (WHERE q.state = 'submitted') AS submitted,
                   count(*) FILTER (WHERE q.state = 'draft') AS drafts
            FROM ai4hse_review.queue_states(who) q) n $$;

-- == API: what reviewers and adjudicators call (SECURITY DEFINER) =====================

-- Who the caller is to this review, the schema version and the audit file published.
CREATE FUNCTION ai4hse_review.whoami() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT pg_catalog.jsonb_build_object(
    'role', session_user,
    'coordinator', ai4hse_review.is_owner(session_user),
    'reviewer', coalesce((SELECT session_user = ANY (p.reviewers) FROM ai4hse_review.plans p
                          WHERE p.plan_id = ai4hse_review.plan_in_force()), false),
    'adjudicator', ai4hse_review.is_member(session_user, 'adjudicator'),
    'schema_version', (SELECT max(v.version) FROM ai4hse_review.schema_version v),
    'audit', (SELECT pg_catalog.jsonb_build_object('name', p.audit_name, 'sha256', p.audit_sha256)
              FROM ai4hse_review.publications p ORDER BY p.published_at DESC LIMIT 1)) $$;

-- The caller's own progress through their queue.
CREATE FUNCTION ai4hse_review.progress() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT ai4hse_review.progress_of(session_user) $$;

-- What the caller may see of question q now (cli.md `review show`). A reviewer sees the
-- text and options of their own queue's questions; the key, the runs' selections and
-- responses once their own blind answer (or "not blind") is stored; the other
-- reviewers' submitted verdicts once their own verdict is submitted. An adjudicator
-- sees all of a question in the adjudication queue that they did not review; the owner
-- sees everything. Each release is recorded with now(), the first time.
CREATE FUNCTION ai4hse_review.show_question(q text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
    owner boolean := ai4hse_review.is_owner(me);
    mine boolean := ai4hse_review.assigned(q, me);
    judge boolean := false;
    own jsonb;
    shown jsonb;
    hidden jsonb := '{}'::jsonb;
BEGIN
    IF NOT owner AND NOT mine THEN
        judge := ai4hse_review.is_member(me, 'adjudicator') AND ai4hse_review.in_queue(q)
                 AND NOT ai4hse_review.reviewed_by(q, me);
    END IF;
    shown := ai4hse_review.question_json(q);
    IF shown IS NULL OR NOT (owner OR mine OR judge) THEN
        RAISE EXCEPTION '% is not in the review queue of %', q, me USING ERRCODE = '42501';
    END IF;
    own := ai4hse_review.my_verdict_json(q, me);
    shown := shown || pg_catalog.jsonb_build_object(
        'role', CASE WHEN mine THEN 'reviewer' WHEN judge THEN 'adjudicator' ELSE 'coordinator' END,
        'verdict', own);
    IF mine THEN
        PERFORM ai4hse_review.release(q, me, 'question');
    END IF;
    IF owner OR judge OR own IS NOT NULL THEN
        shown := shown || ai4hse_review.evidence_json(q);
        IF mine THEN
            PERFORM ai4hse_review.release(q, me, 'key');
        END IF;
    ELSE
        shown := shown || '{"key": null, "runs": null}'::jsonb;
        hidden := hidden || '{"key": "until your blind answer", "runs": "until your blind answer"}'::jsonb;
    END IF;
    IF owner OR judge OR (mine AND own ->> 'state' = 'submitted') THEN
        shown := shown || pg_catalog.jsonb_build_object(
            'others', ai4hse_review.submitted_json(q, CASE WHEN mine THEN me END),
            'decision', ai4hse_review.latest_decision_json(q));
        IF mine THEN
            PERFORM ai4hse_review.release(q, me, 'verdicts');
        ELSIF judge THEN
            PERFORM ai4hse_review.release(q, me, 'adjudication');
        END IF;
    ELSE
        shown := shown || '{"others": null, "decision": null}'::jsonb;
        hidden := hidden || '{"others": "until you submit your verdict", "decision": "until you submit your verdict"}'::jsonb;
    END IF;
    RETURN shown || pg_catalog.jsonb_build_object('hidden', hidden);
END
$$;

-- The caller's next question: the first of their queue without a submitted verdict of
-- theirs (as show_question shows it), and their progress.
CREATE FUNCTION ai4hse_review.next_question() RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
    first_open integer;
    assigned bigint;
    submitted bigint;
    drafts bigint;
    q text;
BEGIN
    SELECT min(s.queue_position) FILTER (WHERE s.state IS DISTINCT FROM 'submitted'),
           count(*), count(*) FILTER (WHERE s.state = 'submitted'),
           count(*) FILTER (WHERE s.state = 'draft')
    INTO first_open, assigned, submitted, drafts
    FROM ai4hse_review.queue_states(me) s;
    SELECT a.question_id INTO q FROM ai4hse_review.assignments a
    WHERE a.plan_id = ai4hse_review.plan_in_force() AND a.reviewer = me
      AND a.position = first_open;
    RETURN pg_catalog.jsonb_build_object(
        'reviewer', me,
        'question', CASE WHEN q IS NULL THEN NULL ELSE ai4hse_review.show_question(q) END,
        'progress', pg_catalog.jsonb_build_object('assigned', assigned,
            'submitted', submitted, 'drafts', drafts, 'remaining', assigned - submitted));
END
$$;

-- Record or revise the caller's verdict on q (cli.md `review verdict`); the verdict as
-- it stands after. A new verdict needs a blind answer or "not blind"; once stored it is
-- fixed (a blind answer given again must equal it; none is added to a not-blind one).
-- Nothing is appended when nothing changes.
CREATE FUNCTION ai4hse_review.save_verdict(
    q text, blind_answer text[], not_blind boolean, verdict text, proposed_key text[],
    confidence text, source text, note text, submit boolean, request_id uuid)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
    n integer;
    answer text[];
    proposed text[];
    new_state text := CASE WHEN coalesce(submit, true) THEN 'submitted' ELSE 'draft' END;
    src text;
    txt text;
    v ai4hse_review.verdicts;
    cur ai4hse_review.current_verdicts;
    b_mode text;
    b_answer text[];
    b_at timestamptz;
    stamp timestamptz := now();
    act text;
BEGIN
    PERFORM ai4hse_review.lock_question(q, false);
    PERFORM pg_catalog.pg_advisory_xact_lock(
        pg_catalog.hashtextextended('ai4hse_review:verdict:' || q || ':' || me, 0));
    IF NOT ai4hse_review.assigned(q, me) THEN
        RAISE EXCEPTION '% is not in the review queue of %', q, me USING ERRCODE = '42501';
    END IF;
    IF ai4hse_review.decided_by(q, me) THEN
        RAISE EXCEPTION '% adjudicated %; an adjudicator does not also review it', me, q
            USING ERRCODE = '42501';
    END IF;
    SELECT count(*) INTO n FROM ai4hse_review.options o WHERE o.question_id = q;
    answer := ai4hse_review.check_list(blind_answer, n, true, 'the blind answer');
    proposed := ai4hse_review.check_list(proposed_key, n, false, 'the proposed key');
    IF verdict IS NOT NULL AND NOT (verdict = ANY (ai4hse_review.verdict_names())) THEN
        RAISE EXCEPTION 'unknown verdict % (one of %)', pg_catalog.left(verdict, 40),
            pg_catalog.array_to_string(ai4hse_review.verdict_names(), ', ') USING ERRCODE = '22023';
    END IF;
    IF confidence IS NOT NULL AND NOT (confidence = ANY (ARRAY['low', 'medium', 'high'])) THEN
        RAISE EXCEPTION 'unknown confidence % (one of low, medium, high)',
            pg_catalog.left(confidence, 40) USING ERRCODE = '22023';
    END IF;
    IF verdict = 'key_wrong' AND proposed IS NULL THEN
        RAISE EXCEPTION 'key_wrong needs a proposed key (--proposed-key [TRUE, FALSE, ...])'
            USING ERRCODE = '22023';
    END IF;
    IF new_state = 'submitted' AND verdict IS NULL THEN
        RAISE EXCEPTION 'a verdict is needed to submit' USING ERRCODE = '22023';
    END IF;
    src := ai4hse_review.check_text(source, 'a source', 2000);
    txt := ai4hse_review.check_text(note, 'a note', 20000);
    SELECT * INTO cur FROM ai4hse_review.current_verdicts c
    WHERE c.question_id = q AND c.reviewer = me;
    IF NOT FOUND THEN
        IF answer IS NULL AND NOT coalesce(not_blind, false) THEN
            RAISE EXCEPTION 'a first verdict needs --blind-answer LIST or --not-blind'
                USING ERRCODE = '22023';
        END IF;
        INSERT INTO ai4hse_review.verdicts (question_id, reviewer, created_at, audit_sha256)
        VALUES (q, me, stamp, (SELECT p.audit_sha256 FROM ai4hse_review.publications p
                               ORDER BY p.published_at DESC LIMIT 1))
        RETURNING * INTO v;
        b_mode := CASE WHEN answer IS NULL THEN 'not_blind' ELSE 'blind' END;
        b_answer := answer;
        b_at := stamp;
        act := 'create';
    ELSE
        IF answer IS NOT NULL AND cur.blind = 'not_blind' THEN
            RAISE EXCEPTION '%''s verdict on % was recorded as not blind at %; a blind answer cannot be added after the key was shown',
                me, q, ai4hse_review.iso(cur.blind_at) USING ERRCODE = '42501';
        END IF;
        IF answer IS NOT NULL AND answer IS DISTINCT FROM cur.blind_answer THEN
            RAISE EXCEPTION '%''s blind answer on % was recorded at %; it cannot change after the key was shown',
                me, q, ai4hse_review.iso(cur.blind_at) USING ERRCODE = '42501';
        END IF;
        IF cur.verdict IS NOT DISTINCT FROM save_verdict.verdict
           AND cur.proposed_key IS NOT DISTINCT FROM proposed
           AND cur.confidence IS NOT DISTINCT FROM save_verdict.confidence
           AND cur.source = src AND cur.note = txt AND cur.state = new_state THEN
            RETURN ai4hse_review.verdict_json(cur);
        END IF;
        v.verdict_id := cur.verdict_id;
        b_mode := cur.blind;
        b_answer := cur.blind_answer;
        b_at := cur.blind_at;
        stamp := greatest(stamp, cur.at + interval '1 microsecond');
        act := CASE WHEN new_state = 'submitted' AND cur.state <> 'submitted' THEN 'submit'
                    ELSE 'edit' END;
    END IF;
    INSERT INTO ai4hse_review.verdict_revisions (verdict_id, reviewer, at, action, blind,
        blind_answer, blind_at, verdict, proposed_key, confidence, source, note, state, request_id)
    VALUES (v.verdict_id, me, stamp, act, b_mode, b_answer, b_at, save_verdict.verdict, proposed,
        save_verdict.confidence, src, txt, new_state, save_verdict.request_id);
    RETURN ai4hse_review.my_verdict_json(q, me);
END
$$;

-- Record the caller's blind answer on q (NULL: "not blind") as a draft without a
-- verdict; after it the key is shown. Refused once any verdict of theirs exists.
CREATE FUNCTION ai4hse_review.record_blind(q text, blind_answer text[], request_id uuid)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
    at_ text;
BEGIN
    PERFORM ai4hse_review.lock_question(q, false);
    PERFORM pg_catalog.pg_advisory_xact_lock(
        pg_catalog.hashtextextended('ai4hse_review:verdict:' || q || ':' || me, 0));
    SELECT ai4hse_review.iso(c.blind_at) INTO at_ FROM ai4hse_review.current_verdicts c
    WHERE c.question_id = q AND c.reviewer = me;
    IF FOUND AND ai4hse_review.assigned(q, me) THEN
        RAISE EXCEPTION '% already answered % (at %); a blind answer cannot be recorded after the key was shown',
            me, q, at_ USING ERRCODE = '42501';
    END IF;
    RETURN ai4hse_review.save_verdict(q, blind_answer, blind_answer IS NULL, NULL, NULL, NULL,
                                      '', '', false, request_id);
END
$$;

-- The adjudication queue as the caller may read it (cli.md `review adjudication`): one
-- object per question in the queue that the caller did not review, by ordinal.
CREATE FUNCTION ai4hse_review.adjudication_queue() RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
    owner boolean := ai4hse_review.is_owner(me);
    picked text[];
BEGIN
    IF NOT owner AND NOT ai4hse_review.is_member(me, 'adjudicator') THEN
        RAISE EXCEPTION '% is not an adjudicator of this review', me USING ERRCODE = '42501';
    END IF;
    picked := ARRAY(SELECT w.question_id FROM ai4hse_review.queue_questions() w
                    WHERE owner OR NOT ai4hse_review.reviewed_by(w.question_id, me));
    IF NOT owner THEN
        INSERT INTO ai4hse_review.releases (question_id, role_name, what)
        SELECT p.q, me, 'adjudication' FROM pg_catalog.unnest(picked) AS p(q)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                'question_id', x.question_id, 'ordinal', x.ordinal,
                'official_key', pg_catalog.to_jsonb(k.key),
                'verdicts', ai4hse_review.submitted_json(x.question_id, NULL),
                'decision', ai4hse_review.latest_decision_json(x.question_id))
            ORDER BY x.ordinal, x.question_id COLLATE "C"), '[]'::jsonb)
            FROM ai4hse_review.questions x
            JOIN ai4hse_review.keys k ON k.question_id = x.question_id
            WHERE x.question_id = ANY (picked));
END
$$;

-- The caller's decision on q (cli.md `review adjudicate`). Only an adjudicator, only on
-- a question in the adjudication queue, only one they did not review; key_corrected
-- needs a key other than the official one.
CREATE FUNCTION ai4hse_review.adjudicate(q text, decision text, corrected_key text[], note text,
                                         request_id uuid)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
    n integer;
    k text[];
    official boolean[];
    txt text;
    d ai4hse_review.current_decisions;
    did uuid;
    stamp timestamptz := now();
BEGIN
    PERFORM ai4hse_review.lock_question(q, true);
    IF NOT ai4hse_review.is_member(me, 'adjudicator') THEN
        RAISE EXCEPTION '% is not an adjudicator of this review', me USING ERRCODE = '42501';
    END IF;
    SELECT kk.key INTO official FROM ai4hse_review.keys kk WHERE kk.question_id = q;
    IF NOT FOUND THEN
        RAISE EXCEPTION '% is not in the adjudication queue', q USING ERRCODE = '42501';
    END IF;
    IF ai4hse_review.reviewed_by(q, me) THEN
        RAISE EXCEPTION '% is one of %''s reviewers; another person adjudicates it', me, q
            USING ERRCODE = '42501';
    END IF;
    IF NOT ai4hse_review.in_queue(q) THEN
        RAISE EXCEPTION '% is not in the adjudication queue', q USING ERRCODE = '42501';
    END IF;
    IF decision IS NULL OR NOT (decision = ANY (ARRAY['key_confirmed', 'key_corrected',
                                                      'question_excluded', 'unresolved'])) THEN
        RAISE EXCEPTION 'unknown decision % (one of key_confirmed, key_corrected, question_excluded, unresolved)',
            pg_catalog.left(coalesce(decision, 'NULL'), 40) USING ERRCODE = '22023';
    END IF;
    IF decision = 'key_corrected' AND corrected_key IS NULL THEN
        RAISE EXCEPTION 'key_corrected needs the corrected key (--key [TRUE, FALSE, ...])'
            USING ERRCODE = '22023';
    END IF;
    IF decision <> 'key_corrected' AND corrected_key IS NOT NULL THEN
        RAISE EXCEPTION '--key is given only with key_corrected' USING ERRCODE = '22023';
    END IF;
    n := pg_catalog.cardinality(official);
    k := ai4hse_review.check_list(corrected_key, n, false, 'the corrected key');
    IF k IS NOT NULL AND ARRAY(SELECT x = 'TRUE' FROM pg_catalog.unnest(k) WITH ORDINALITY AS u(x, i)
                               ORDER BY u.i) = official THEN
        RAISE EXCEPTION 'the corrected key of % equals its official key; key_confirmed says so', q
            USING ERRCODE = '22023';
    END IF;
    txt := ai4hse_review.check_text(note, 'a note', 20000);
    SELECT * INTO d FROM ai4hse_review.current_decisions c WHERE c.question_id = q;
    IF FOUND THEN
        did := d.decision_id;
        stamp := greatest(stamp, d.at + interval '1 microsecond');
    ELSE
        INSERT INTO ai4hse_review.decisions (question_id, created_at, audit_sha256)
        VALUES (q, stamp, (SELECT p.audit_sha256 FROM ai4hse_review.publications p
                           ORDER BY p.published_at DESC LIMIT 1))
        RETURNING decision_id INTO did;
    END IF;
    INSERT INTO ai4hse_review.decision_revisions (decision_id, adjudicator, at, decision,
                                                  corrected_key, note, request_id)
    VALUES (did, me, stamp, adjudicate.decision, k, txt, adjudicate.request_id);
    RETURN ai4hse_review.latest_decision_json(q);
END
$$;

-- What a request of the caller stored, if anything: {"verdict": ...} or {"decision": ...}
-- (after a lost connection, the desk asks whether its write was committed).
CREATE FUNCTION ai4hse_review.request_outcome(request uuid) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT coalesce(
    (SELECT pg_catalog.jsonb_build_object('verdict',
                ai4hse_review.my_verdict_json(v.question_id, session_user))
     FROM ai4hse_review.verdict_revisions r
     JOIN ai4hse_review.verdicts v ON v.verdict_id = r.verdict_id
     WHERE r.request_id = request AND r.reviewer = session_user),
    (SELECT pg_catalog.jsonb_build_object('decision',
                ai4hse_review.latest_decision_json(d.question_id))
     FROM ai4hse_review.decision_revisions r
     JOIN ai4hse_review.decisions d ON d.decision_id = r.decision_id
     WHERE r.request_id = request AND r.adjudicator = session_user)) $$;

-- cli.md's `review status` body (counts only; no verdict, key or text).
CREATE FUNCTION ai4hse_review.review_status() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$
WITH p AS (SELECT * FROM ai4hse_review.plans
           WHERE plan_id = ai4hse_review.plan_in_force()),
     a AS (SELECT x.question_id, x.reviewer FROM ai4hse_review.assignments x
           JOIN p ON p.plan_id = x.plan_id),
     c AS (SELECT c.question_id, c.reviewer, c.state FROM ai4hse_review.current_verdicts c),
     people AS (SELECT pg_catalog.unnest(p.reviewers) AS reviewer FROM p
                UNION SELECT c.reviewer FROM c),
     own AS (SELECT c.reviewer, c.state FROM c
             JOIN a ON a.question_id = c.question_id AND a.reviewer = c.reviewer),
     per_question AS (SELECT q.question_id,
                             (SELECT count(*) FROM c WHERE c.question_id = q.question_id
                                                       AND c.state = 'submitted') AS n
                      FROM (SELECT DISTINCT a.question_id FROM a) q),
     waiting AS (SELECT w.question_id FROM ai4hse_review.queue_questions() w),
     needing AS (SELECT c.question_id FROM ai4hse_review.current_verdicts c
                 WHERE c.state = 'submitted' GROUP BY c.question_id
                 HAVING pg_catalog.bool_or(c.verdict = 'key_wrong')
                     OR count(DISTINCT c.verdict || '|' || coalesce(
                            pg_catalog.array_to_string(c.proposed_key, ','), '')) > 1)
SELECT pg_catalog.jsonb_build_object(
    'plan', (SELECT pg_catalog.jsonb_build_object('per_question', p.per_question,
                 'questions', p.questions, 'order', p.plan_order, 'seed', p.seed) FROM p),
    'reviewers', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                      'reviewer', r.reviewer, 'assigned', r.assigned, 'submitted', r.submitted,
                      'drafts', r.drafts, 'remaining', r.assigned - r.submitted)
                      ORDER BY r.reviewer COLLATE "C"), '[]'::jsonb)
                  FROM (SELECT people.reviewer,
                               (SELECT count(*) FROM a WHERE a.reviewer = people.reviewer) AS assigned,
                               (SELECT count(*) FROM own WHERE own.reviewer = people.reviewer
                                                           AND own.state = 'submitted') AS submitted,
                               (SELECT count(*) FROM own WHERE own.reviewer = people.reviewer
                                                           AND own.state = 'draft') AS drafts
                        FROM people) r),
    'coverage', (SELECT pg_catalog.jsonb_build_object(
                     'questions', count(*),
                     'fully_reviewed', count(*) FILTER (WHERE pq.n >= p.per_question),
                     'partly_reviewed', count(*) FILTER (WHERE pq.n > 0 AND pq.n < p.per_question),
                     'unreviewed', count(*) FILTER (WHERE pq.n = 0))
                 FROM per_question pq, p),
    'adjudication', pg_catalog.jsonb_build_object(
        'needed', (SELECT count(*) FROM needing),
        'decided', (SELECT count(*) FROM needing WHERE needing.question_id NOT IN
                        (SELECT waiting.question_id FROM waiting))))
$$;

-- The whole review (questions with keys, plans, verdicts and decisions with every
-- revision): for the coordinator (collect, report) and for an adjudicator who reviews
-- no question (report). Each read is recorded.
CREATE FUNCTION ai4hse_review.review_export() RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
DECLARE
    me constant text := session_user;
BEGIN
    IF NOT ai4hse_review.is_owner(me) AND NOT (
        ai4hse_review.is_member(me, 'adjudicator')
        AND NOT EXISTS (SELECT 1 FROM ai4hse_review.assignments a WHERE a.reviewer = me)
        AND NOT EXISTS (SELECT 1 FROM ai4hse_review.verdicts v WHERE v.reviewer = me)) THEN
        RAISE EXCEPTION 'the whole review is read by the coordinator or by an adjudicator who reviews no question; % may not read it', me
            USING ERRCODE = '42501';
    END IF;
    INSERT INTO ai4hse_review.whole_reads (role_name) VALUES (me);
    RETURN pg_catalog.jsonb_build_object(
        'schema_version', (SELECT max(s.version) FROM ai4hse_review.schema_version s),
        'audit', (SELECT pg_catalog.jsonb_build_object('name', p.audit_name, 'sha256', p.audit_sha256)
                  FROM ai4hse_review.publications p ORDER BY p.published_at DESC LIMIT 1),
        'questions', (SELECT coalesce(pg_catalog.jsonb_agg(
                          ai4hse_review.question_json(x.question_id)
                          || pg_catalog.jsonb_build_object('key', pg_catalog.to_jsonb(k.key))
                          ORDER BY x.ordinal, x.question_id COLLATE "C"), '[]'::jsonb)
                      FROM ai4hse_review.questions x
                      JOIN ai4hse_review.keys k ON k.question_id = x.question_id),
        'plans', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                      'plan_id', p.plan_id, 'created_at', ai4hse_review.iso(p.created_at),
                      'created_by', p.created_by, 'per_question', p.per_question,
                      'order', p.plan_order, 'seed', p.seed, 'reviewers', pg_catalog.to_jsonb(p.reviewers),
                      'questions', p.questions, 'audit_sha256', p.audit_sha256,
                      'assignments', (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                                          'question_id', g.question_id, 'position', g.position,
                                          'reviewers', g.who) ORDER BY g.position)
                                      FROM (SELECT a.question_id, min(a.position) AS position,
                                                   pg_catalog.jsonb_agg(a.reviewer ORDER BY a.reviewer COLLATE "C") AS who
                                            FROM ai4hse_review.assignments a
                                            WHERE a.plan_id = p.plan_id
                                            GROUP BY a.question_id) g))
                      ORDER BY p.created_at), '[]'::jsonb)
                  FROM ai4hse_review.plans p),
        'verdicts', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                         'verdict_id', v.verdict_id, 'question_id', v.question_id,
                         'reviewer', v.reviewer, 'created_at', ai4hse_review.iso(v.created_at),
                         'audit_sha256', v.audit_sha256,
                         'revisions', (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                                 'revision_id', r.revision_id, 'at', ai4hse_review.iso(r.at),
                                 'action', r.action, 'blind', r.blind,
                                 'blind_answer', pg_catalog.to_jsonb(r.blind_answer),
                                 'blind_at', ai4hse_review.iso(r.blind_at), 'verdict', r.verdict,
                                 'proposed_key', pg_catalog.to_jsonb(r.proposed_key),
                                 'confidence', r.confidence, 'source', r.source, 'note', r.note,
                                 'state', r.state) ORDER BY r.at, r.revision_id)
                             FROM ai4hse_review.verdict_revisions r
                             WHERE r.verdict_id = v.verdict_id))
                         ORDER BY v.created_at, v.verdict_id), '[]'::jsonb)
                     FROM ai4hse_review.verdicts v),
        'decisions', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                          'decision_id', d.decision_id, 'question_id', d.question_id,
                          'created_at', ai4hse_review.iso(d.created_at),
                          'audit_sha256', d.audit_sha256,
                          'revisions', (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                                  'revision_id', r.revision_id, 'adjudicator', r.adjudicator,
                                  'at', ai4hse_review.iso(r.at), 'decision', r.decision,
                                  'corrected_key', pg_catalog.to_jsonb(r.corrected_key),
                                  'note', r.note) ORDER BY r.at, r.revision_id)
                              FROM ai4hse_review.decision_revisions r
                              WHERE r.decision_id = d.decision_id))
                          ORDER BY d.created_at, d.decision_id), '[]'::jsonb)
                      FROM ai4hse_review.decisions d));
END
$$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ai4hse_review FROM PUBLIC;
