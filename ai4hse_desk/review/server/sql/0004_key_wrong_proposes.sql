-- The review schema, version 4: a "key wrong" verdict proposes a key other than the official
-- one. The window's verdict form always refused such a verdict and the local store refuses it
-- (review.values.proposes_the_official_key); here the database holds the rule itself, for
-- every revision written from now on, whoever writes it: a trigger on verdict_revisions,
-- so save_verdict (version 2) stays as it is. Revisions written before stay as they are.

CREATE FUNCTION ai4hse_review.refuse_official_proposal() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, ai4hse_review, pg_temp AS $$
BEGIN
    IF NEW.verdict = 'key_wrong' AND NEW.proposed_key = (
        SELECT ARRAY(SELECT CASE WHEN u.x THEN 'TRUE' ELSE 'FALSE' END
                     FROM pg_catalog.unnest(k.key) WITH ORDINALITY AS u(x, i) ORDER BY u.i)
        FROM ai4hse_review.verdicts v JOIN ai4hse_review.keys k USING (question_id)
        WHERE v.verdict_id = NEW.verdict_id)
    THEN
        RAISE EXCEPTION 'key_wrong: the proposed key is the official key; propose the key you think is right'
            USING ERRCODE = '22023';
    END IF;
    RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION ai4hse_review.refuse_official_proposal() FROM PUBLIC;

CREATE TRIGGER key_wrong_proposes_another_key BEFORE INSERT ON ai4hse_review.verdict_revisions
    FOR EACH ROW EXECUTE FUNCTION ai4hse_review.refuse_official_proposal();
