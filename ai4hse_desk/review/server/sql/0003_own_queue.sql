-- The review schema, version 3: a reviewer's own queue, so that the window can list it and
-- open any question of it again (a submitted one shows the other reviewers' verdicts).
--
-- It lists question ids, their places in the plan in force and the state of the caller's
-- own verdict on each: no text, option, key or anyone else's verdict, so it releases
-- nothing (show_question still records each release the first time). SECURITY DEFINER
-- like the rest of the API; the caller is session_user; `review publish` grants EXECUTE to
-- the reviewers' group.

CREATE FUNCTION ai4hse_review.own_queue() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, ai4hse_review, pg_temp
AS $$ SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                 'question_id', s.question_id, 'position', s.queue_position, 'state', s.state)
             ORDER BY s.queue_position), '[]'::jsonb)
      FROM ai4hse_review.queue_states(session_user) s $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ai4hse_review FROM PUBLIC;
