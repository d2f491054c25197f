"""Mutants of ``make mutate`` that change no behaviour a user could notice, with the reason.

Each entry: mutant name -> (the line(s) the mutant puts in, as ``scripts/mutate.py``
reads them from its diff, stripped and joined by `` / ``; the reason). A name whose
mutant no longer puts in that text is stale, and the mutant counts as a survivor.
"""

from __future__ import annotations

_M = "ai4hse_desk.protocol.metrics."
_L = "ai4hse_desk.protocol.lists."
_R = "ai4hse_desk.protocol.reasoning."
_S = "ai4hse_desk.protocol.single_choice."
_E = "ai4hse_desk.protocol.extract."
_J = "ai4hse_desk.protocol.structured."
_TWO_LISTS = (
    "a short cut: with one `[` there are not two answer lists, so searching anyway finds "
    "at most one and the text is not ambiguous either way"
)
_LEAN = (
    "the rescore's rule keeps the spans it may leave out (its contract: the same status, "
    "selection, strict flag and reason, the spans possibly left out)"
)
_HEAD_AT_START = (
    "this check only decides whether the last line's leading whitespace is skipped: that "
    "is a no-op when the line starts with the field, and when the text starts with the "
    "field but its last line is another, that line cannot hold a second field; the next "
    "check decides the same"
)
_PAREN_GROUP = "the parenthesised letter's group starts after `(`, at 1 or later, when it matches"
_SCAN = (
    "the search from the end only gets slower or hands over to the one scan of the whole "
    "text sooner or later (`_last_by_scan`), which finds the same last match"
)
_EXACT_PHRASE = (
    "a short cut for the common exact phrase: a match there is taken only when no spelling "
    "of the phrase follows it; otherwise the search from the end decides, the same way"
)
_TAIL_WINDOW = (
    "a short cut over the last 256 characters: when it finds nothing, or is skipped, the "
    "search from the end (`_last_answer_is`) decides, the same way; a match it takes just "
    "before the window is the last one, as no phrase starts inside the window"
)
_FAST_JSON = (
    "the canonical-shape short cut is skipped: the parser and the schema checks give the "
    "same status, selection, spans and reason for that shape"
)
_TOKEN_CASE = (
    "an item that is exactly TRUE or FALSE is also found by the case-insensitive look-up "
    "(4 or 5 ASCII letters), with the same value; no other item becomes a token"
)
_BRACKET_GUARD = (
    "a guard before `strict_selection`, which gives None for any content with a bracket "
    "(no strict token holds one) and the memo's value for a content seen before"
)
_NEWLINE_AT = (
    "a newline is looked for after the 13-character field, or after a non-blank "
    "character: it is never at index 0, so `< 0`, `<= 0` and `< 1` agree"
)
_UNREACHABLE = (
    "the message of an assertion no input reaches: a dict shorter than its pairs has a "
    "repeated key, which the loop above always finds"
)
_MEMO = (
    "a memo of verdicts that depend only on its key is bypassed, bounded one entry "
    "later or filled with a miss: every verdict is computed again, the same"
)
_SHORT_SPAN = (
    "a text of 2 characters that opens and closes a bracket is `[]`, which has no token "
    "item; one of 0 or 1 character cannot open and close: either way no answer list"
)
_ZIP = (
    "`strict` of `zip` never decides: two lines above, a selection whose length differs "
    "from its key's has already raised ValueError"
)
_PAIR_MEMO = (
    "the shared table of option counts per (selection, key) is bypassed or bounded one "
    "entry later: the same counts are computed again"
)
_SAME_RANK = (
    "known tracks have distinct ranks, so this element only orders runs of one known "
    "track, for which it is the same for every run"
)

_RU = "ai4hse_desk.review.rules."
_FS = "ai4hse_desk.review.final_state."
_VA = "ai4hse_desk.review.values."
_NEW_ROW = (
    "a new verdict's field left out of its first revision: SQLAlchemy leaves out a "
    "parameter that names no column, and the column is then NULL, the value given; the "
    "revision's `changes` list only values that differ from nothing, so they are the same"
)
_BLIND_AT = (
    "the first revision's `blind_at` is set by `writes.change_verdict` to the time of the "
    "new verdict whatever this dict holds (a parameter naming no column is left out)"
)
_ONE_OF_ALL = (
    "every question's verdicts (or decisions) read instead of this one's: `final_states` "
    "groups them by question and `state_of` takes this one's, the same state (only the cost "
    "the per-question read saves is lost; the bench's Review view step measures it)"
)
_JOIN = (
    "the ON clause is inferred from the one foreign key between the two tables "
    "(review_decision_revisions.decision_id -> review_decisions.decision_id): the same join"
)
_KEY_ONLY_CORRECTED = (
    "only a key_corrected decision holds a corrected key: `Adjudication.adjudicate` "
    "refuses --key with any other decision, and an import the same (import_check)"
)
_STATE_KEY = (
    "a final state holds a key only when it is `corrected` (`_state`), so the key test "
    "adds no other question"
)
_NEVER_NOT_REVIEWED = (
    "unreachable: `final_states` calls `_state` only for a question with a verdict, a "
    "decision or a place in the plan, which is under review at least (a question absent "
    "from the states is `not_reviewed` through `state_of`)"
)
_FALSY = "`clean_note` only tests `required` for truth: None and False alike ask for no text"
_AS_WRITTEN = (
    "`json.dumps` only tests `ensure_ascii` for truth: None and False alike write the text as it is"
)

EQUIVALENTS: dict[str, tuple[str, str]] = {
    # --- protocol/answer_only.py
    "ai4hse_desk.protocol.answer_only.x_extract_answer_only_v10__mutmut_13": (
        "selection = None",
        _MEMO,
    ),
    "ai4hse_desk.protocol.answer_only.x_extract_answer_only_v10__mutmut_14": (
        "selection = STRICT_CONTENTS.get(None)",
        _MEMO,
    ),
    "ai4hse_desk.protocol.answer_only.x_extract_answer_only_v10__mutmut_15": (
        'if selection is None and "[" not in content or "]" not in content:',
        _BRACKET_GUARD,
    ),
    "ai4hse_desk.protocol.answer_only.x_extract_answer_only_v10__mutmut_16": (
        'if selection is None or "[" not in content and "]" not in content:',
        _BRACKET_GUARD,
    ),
    "ai4hse_desk.protocol.answer_only.x_extract_answer_only_v10__mutmut_18": (
        'if selection is None and "XX[XX" not in content and "]" not in content:',
        _BRACKET_GUARD,
    ),
    "ai4hse_desk.protocol.answer_only.x_extract_answer_only_v10__mutmut_20": (
        'if selection is None and "[" not in content and "XX]XX" not in content:',
        _BRACKET_GUARD,
    ),
    # --- protocol/compare.py
    "ai4hse_desk.protocol.compare.x_parse_extracted__mutmut_13": (
        "if len(_PARSED) > _PARSED_LIMIT:",
        _MEMO,
    ),
    # --- protocol/extract.py
    _E + "x_track_rule__mutmut_5": (
        "return _rule(track, 2)",
        "the number only passes `_rule`'s n >= 1 check, which 1 and 2 both pass",
    ),
    _E + "x_verdict_rule__mutmut_3": ("return _VERDICT_RULES.get(None, rule)", _LEAN),
    _E + "x_derive__mutmut_40": (
        "result.selection if (result.status is Status.VALID) or True else None,",
        "every track rule gives a selection only with `valid` (the any-text property test "
        "`test_any_text_gives_a_well_formed_verdict` holds it for every track), so a cut-off "
        "attempt keeps the same selection or None either way",
    ),
    # --- protocol/lists.py
    _L + "x_read_items__mutmut_23": (
        "selection = STRICT_CONTENTS.get(None) or strict_selection(content)",
        _MEMO,
    ),
    _L + "x_strict_selection__mutmut_1": ("selection = None", _MEMO),
    _L + "x_strict_selection__mutmut_2": ("selection = STRICT_CONTENTS.get(None)", _MEMO),
    _L + "x_strict_selection__mutmut_16": ("if len(content) < _MEMO_MAX_CONTENT:", _MEMO),
    _L + "x_strict_selection__mutmut_17": (
        "if len(STRICT_CONTENTS) > _MEMO_MAX_ENTRIES:",
        _MEMO,
    ),
    _L + "x_strict_selection__mutmut_18": ("STRICT_CONTENTS[content] = None", _MEMO),
    _L + "x_token_value__mutmut_2": ("value = None", _TOKEN_CASE),
    _L + "x_token_value__mutmut_3": ("value = STRICT_TOKENS.get(None)", _TOKEN_CASE),
    _L + "x_token_value__mutmut_4": (
        "if value is None and len(item) in (4, 5) or item.isascii():",
        _TOKEN_CASE,
    ),
    _L + "x_token_value__mutmut_5": (
        "if value is None or len(item) in (4, 5) and item.isascii():",
        _TOKEN_CASE,
    ),
    _L + "x_is_answer_list__mutmut_6": ("len(span_text) > 2", _SHORT_SPAN),
    _L + "x_is_answer_list__mutmut_7": ("len(span_text) >= 3", _SHORT_SPAN),
    # --- protocol/reasoning.py
    _R + "x__after_field__mutmut_10": (
        'first = ANSWER_LIST.search(body) if (body.count("[") > 1) or True else None',
        _TWO_LISTS,
    ),
    _R + "x__after_field__mutmut_14": (
        'first = ANSWER_LIST.search(body) if body.count("[") >= 1 else None',
        _TWO_LISTS,
    ),
    _R + "x__strict_final__mutmut_11": (
        "if not body.startswith(_STRICT_HEAD, None):",
        _HEAD_AT_START,
    ),
    _R + "x__strict_final__mutmut_13": ("if not body.startswith(_STRICT_HEAD, ):", _HEAD_AT_START),
    _R + "x_reasoning_verdict__mutmut_15": (
        "return _general(text, n, count, lean=None)",
        _LEAN,
    ),
    _R + "x_reasoning_verdict__mutmut_20": ("return _general(text, n, count, lean=False)", _LEAN),
    _R + "x_reasoning_verdict__mutmut_19": ("return _general(text, n, count, )", _LEAN),
    _R + "x__general__mutmut_34": (
        'line_start = text.rfind("\\n", None, pos) + 1',
        "a start of None is the start of the text, as 0 is",
    ),
    _R + "x__general__mutmut_41": (
        'line_start = text.rfind("\\n", 1, pos) + 1',
        "a newline at index 0 is then counted in the field's line; it is whitespace, which "
        "the rule skips before the field and which no span starts with",
    ),
    _R + "x__general__mutmut_51": ("if line_end <= 0:", _NEWLINE_AT),
    _R + "x__general__mutmut_52": ("if line_end < 1:", _NEWLINE_AT),
    _R + "x__general__mutmut_69": (
        "later_end = None",
        "the line is then sliced up to None, which is the end of the text, as len(text) is",
    ),
    _R + "x__general__mutmut_107": ("found = None", _MEMO),
    _R + "x__general__mutmut_108": ("found = _FINAL_LINES.get(None)", _MEMO),
    _R + "x__general__mutmut_114": (
        "found = _after_field(text, n, field, None, line_end).without_spans()",
        "the line's start only serves the strict check of a valid list, and a valid strict "
        "final line never gets here: the fast path (the same definition of a strict line) "
        "has already answered it; the other verdicts do not read it",
    ),
    _R + "x__general__mutmut_121": ("if len(line[0]) < _MEMO_MAX_CONTENT:", _MEMO),
    _R + "x__general__mutmut_122": ("if len(_FINAL_LINES) > _MEMO_MAX_ENTRIES:", _MEMO),
    _R + "x__general__mutmut_123": ("_FINAL_LINES[line] = None", _MEMO),
    _R + "x__general__mutmut_67": ("if later_end <= 0:", _NEWLINE_AT),
    _R + "x__general__mutmut_68": ("if later_end < 1:", _NEWLINE_AT),
    _R + "x__line_verdict__mutmut_1": ("found = None", _MEMO),
    _R + "x__line_verdict__mutmut_2": ("found = _LINE_VERDICTS.get(None)", _MEMO),
    _R + "x__line_verdict__mutmut_30": ("if len(content) < _MEMO_MAX_CONTENT:", _MEMO),
    _R + "x__line_verdict__mutmut_31": ("if len(_LINE_VERDICTS) > _MEMO_MAX_ENTRIES:", _MEMO),
    _R + "x__line_verdict__mutmut_32": ("_LINE_VERDICTS[content] = None", _MEMO),
    # --- protocol/structured.py
    _J + "x__object__mutmut_11": ("raise AssertionError(None)  # pragma: no cover", _UNREACHABLE),
    _J + "x__object__mutmut_12": (
        'raise AssertionError("XXunreachable: a shorter dict has a repeated keyXX")  '
        "# pragma: no cover",
        _UNREACHABLE,
    ),
    _J + "x__object__mutmut_13": (
        'raise AssertionError("UNREACHABLE: A SHORTER DICT HAS A REPEATED KEY")  '
        "# pragma: no cover",
        _UNREACHABLE,
    ),
    _J + "x_extract_structured__mutmut_10": ("fast = None", _FAST_JSON),
    _J + "x_extract_structured__mutmut_15": ("fast = _FAST.fullmatch(text, end)", _FAST_JSON),
    _J + "x_extract_structured__mutmut_16": ("fast = _FAST.fullmatch(text, start, )", _FAST_JSON),
    # --- protocol/single_choice.py
    _S + "x_single_choice_verdict__mutmut_11": (
        "at = strict.start(1) if strict.start(1) > 0 else strict.start(2)",
        _PAREN_GROUP,
    ),
    _S + "x_single_choice_verdict__mutmut_12": (
        "at = strict.start(1) if strict.start(1) >= 1 else strict.start(2)",
        _PAREN_GROUP,
    ),
    _S + "x_single_choice_verdict__mutmut_20": (
        "key = (n, text[at].lower(), strict is not None)",
        "the shared verdicts are keyed by the letter in one case, lower or upper alike (the "
        "verdict reads the letter case-insensitively)",
    ),
    _S + "x_single_choice_verdict__mutmut_21": (
        "key = (n, text[at].upper(), strict is None)",
        "the flag only keeps the bare and the 'answer is' forms apart; inverted it still does",
    ),
    _S + "x_single_choice_verdict__mutmut_22": ("found = None", _MEMO),
    _S + "x_single_choice_verdict__mutmut_23": ("found = _VERDICTS.get(None)", _MEMO),
    _S + "x_single_choice_verdict__mutmut_30": ("if len(_VERDICTS) > _MAX_VERDICTS:", _MEMO),
    _S + "x_single_choice_verdict__mutmut_31": ("_VERDICTS[key] = None", _MEMO),
    _S + "x__last_answer_is__mutmut_4": (
        "tries = 1",
        "one try fewer before the one scan of the whole text, which finds the same last match",
    ),
    _S + "x__last_answer_is__mutmut_8": (
        "start = end - window if (end > window) and False else 0",
        "the first window is then the whole text: its hits are tried from the last one "
        "back, which finds the same last match (only slower on long texts)",
    ),
    _S + "x__last_answer_is__mutmut_10": (
        "start = end + window if end > window else 0",
        "the window then runs past the end, widening four times each round, until it is "
        "wider than the text: the whole text is then searched from its last hit back, "
        "which finds the same last match",
    ),
    _S + "x__last_answer_is__mutmut_11": (
        "start = end - window if end >= window else 0",
        "when end equals the window, end - window is 0 as well",
    ),
    _S + "x__last_answer_is__mutmut_21": (
        'tail = text[start : end + _REACH].encode("ASCII", "replace").lower()',
        "codec names are case-insensitive: the same ASCII codec",
    ),
    _S + "x__last_answer_is__mutmut_36": ("tries = 1", _SCAN),
    _S + "x__last_answer_is__mutmut_37": ("tries -= 1", _SCAN),
    _S + "x__last_answer_is__mutmut_38": ("tries += 2", _SCAN),
    _S + "x__last_answer_is__mutmut_39": ("if tries != _MAX_TRIES:", _SCAN),
    _S + "x__last_answer_is__mutmut_43": (
        "at = tail.rfind(_PHRASE, None, at)  # the phrase cannot overlap itself",
        _SCAN,
    ),
    _S + "x__last_answer_is__mutmut_44": (
        "at = tail.rfind(_PHRASE, 0, None)  # the phrase cannot overlap itself",
        _SCAN,
    ),
    _S + "x__last_answer_is__mutmut_46": (
        "at = tail.rfind(_PHRASE, at)  # the phrase cannot overlap itself",
        _SCAN,
    ),
    _S + "x__last_answer_is__mutmut_47": (
        "at = tail.rfind(_PHRASE, 0, )  # the phrase cannot overlap itself",
        _SCAN,
    ),
    _S + "x__last_answer_is__mutmut_51": ("window = 4", _SCAN),
    _S + "x__last_answer_is__mutmut_53": ("window *= 5", _SCAN),
    _S + "x__located__mutmut_12": ('at = text.find("answer is")', _EXACT_PHRASE),
    _S + "x__located__mutmut_13": ('at = text.rfind("XXanswer isXX")', _EXACT_PHRASE),
    _S + "x__located__mutmut_14": ('at = text.rfind("ANSWER IS")', _EXACT_PHRASE),
    _S + "x_extract_single_choice__mutmut_10": (
        "group = 1 if strict.start(1) > 0 else 2",
        _PAREN_GROUP,
    ),
    _S + "x_extract_single_choice__mutmut_11": (
        "group = 1 if strict.start(1) >= 1 else 2",
        _PAREN_GROUP,
    ),
    _S + "x__located__mutmut_15": ("if at > 0:", _EXACT_PHRASE),
    _S + "x__located__mutmut_16": ("if at >= 1:", _EXACT_PHRASE),
    _S + "x__located__mutmut_17": ("last = None", _EXACT_PHRASE),
    _S + "x__located__mutmut_21": ("last = _ANSWER_IS.match(text, )", _EXACT_PHRASE),
    _S + "x__located__mutmut_24": (
        "if len(text) - end < len(_PHRASE) and _ANY_PHRASE.search(text, end) is None:",
        _EXACT_PHRASE,
    ),
    _S + "x__located__mutmut_25": (
        "if len(text) + end < len(_PHRASE) or _ANY_PHRASE.search(text, end) is None:",
        _EXACT_PHRASE,
    ),
    _S + "x__located__mutmut_26": (
        "if len(text) - end <= len(_PHRASE) or _ANY_PHRASE.search(text, end) is None:",
        (
            "also taken when exactly 9 characters follow the match: a phrase there has no "
            "letter after it and names nothing, so the match is still the last one"
        ),
    ),
    _S + "x__located__mutmut_30": (
        "if len(text) - end < len(_PHRASE) or _ANY_PHRASE.search(text, ) is None:",
        _EXACT_PHRASE,
    ),
    _S + "x__located__mutmut_33": ("start = len(text) + _TAIL", _TAIL_WINDOW),
    _S + "x__located__mutmut_34": ("if start <= 0:", _TAIL_WINDOW),
    _S + "x__located__mutmut_35": ("if start < 1:", _TAIL_WINDOW),
    _S + "x__located__mutmut_37": ("start = 1", _TAIL_WINDOW),
    _S + "x__located__mutmut_41": (
        'at = text[start:].encode("ascii", "replace").upper().rfind(_PHRASE)',
        _TAIL_WINDOW,
    ),
    _S + "x__located__mutmut_47": (
        'at = text[start:].encode("ASCII", "replace").lower().rfind(_PHRASE)',
        _TAIL_WINDOW,
    ),
    _S + "x__located__mutmut_50": ("last = None", _TAIL_WINDOW),
    _S + "x__located__mutmut_51": (
        "last = _ANSWER_IS.match(text, start + at) if (at >= 0) and False else None",
        _TAIL_WINDOW,
    ),
    _S + "x__located__mutmut_52": (
        "last = _ANSWER_IS.match(text, start + at) if (at >= 0) or True else None",
        _TAIL_WINDOW,
    ),
    _S + "x__located__mutmut_58": (
        "last = _ANSWER_IS.match(text, start + at) if at > 0 else None",
        _TAIL_WINDOW,
    ),
    _S + "x__located__mutmut_59": (
        "last = _ANSWER_IS.match(text, start + at) if at >= 1 else None",
        _TAIL_WINDOW,
    ),
    _S + "x__located__mutmut_60": (
        "return None, last if (last is not None) and False else _last_answer_is(text)",
        _TAIL_WINDOW,
    ),
    _S + "x__letter_range__mutmut_17": (
        'return "A" if n == 1 else f"A–{chr(ord(\'A\') + min(n, 27) - 1)}"',
        "the range is only named for a letter past the options, and letters stop at Z, "
        "so n <= 25 there and min(n, 26) = min(n, 27) = n",
    ),
    # --- protocol/metrics.py
    _M + "x__option_counts__mutmut_7": (
        "for chosen, expected in zip(selection, key, strict=None):",
        _ZIP,
    ),
    _M + "x__option_counts__mutmut_10": (
        "for chosen, expected in zip(selection, key, ):",
        _ZIP,
    ),
    _M + "x__option_counts__mutmut_11": (
        "for chosen, expected in zip(selection, key, strict=False):",
        _ZIP,
    ),
    _M + "x__order_key__mutmut_19": (
        'unknown_track = track if (rank == len(_TRACK_RANK)) or True else ""',
        _SAME_RANK,
    ),
    _M + "x__order_key__mutmut_21": (
        'unknown_track = track if rank == len(_TRACK_RANK) else "XXXX"',
        _SAME_RANK,
    ),
    _M + "x__order_key__mutmut_29": (
        'return rank, unknown_track, True, 1.0, str(run["run_id"])',
        "the accuracy slot of a run without a score is the same for every such run (the "
        "flag before it already puts them after the scored runs): any constant orders alike",
    ),
    _M + "xǁRunScorerǁ_option_totals__mutmut_18": ("option_counts = None", _PAIR_MEMO),
    _M + "xǁRunScorerǁ_option_totals__mutmut_19": (
        "option_counts = counted.get(None)",
        _PAIR_MEMO,
    ),
    _M + "xǁRunScorerǁ_option_totals__mutmut_21": (
        "if len(counted) > _PAIR_COUNTS_MAX:",
        _PAIR_MEMO,
    ),
    _M + "xǁRunScorerǁadd_counts__mutmut_15": (
        "if len(known) <= len(keys):  # (once every question is known, none can be new)",
        "the caller (verdicts.tally) passes the answer keys of every question of the audit "
        "file, so when they are as many as the questions known, every question is known and "
        "the loop would add none",
    ),
    # --- review/rules.py
    _RU + "x_blind_draft__mutmut_13": (
        '"XXblind_atXX": None,  # the first revision\'s time (writes.change_verdict)',
        _BLIND_AT,
    ),
    _RU + "x_blind_draft__mutmut_14": (
        '"BLIND_AT": None,  # the first revision\'s time (writes.change_verdict)',
        _BLIND_AT,
    ),
    _RU + "x_blind_draft__mutmut_15": ('"XXverdictXX": None,', _NEW_ROW),
    _RU + "x_blind_draft__mutmut_16": ('"VERDICT": None,', _NEW_ROW),
    _RU + "x_blind_draft__mutmut_17": ('"XXproposed_keyXX": None,', _NEW_ROW),
    _RU + "x_blind_draft__mutmut_18": ('"PROPOSED_KEY": None,', _NEW_ROW),
    _RU + "x_blind_draft__mutmut_19": ('"XXconfidenceXX": None,', _NEW_ROW),
    _RU + "x_blind_draft__mutmut_20": ('"CONFIDENCE": None,', _NEW_ROW),
    _RU + "x_blind_fields__mutmut_17": (
        '"XXblind_atXX": None,  # the first revision\'s time (writes.change_verdict)',
        _BLIND_AT,
    ),
    _RU + "x_blind_fields__mutmut_18": (
        '"BLIND_AT": None,  # the first revision\'s time (writes.change_verdict)',
        _BLIND_AT,
    ),
    _RU + "x_question_adjudicators__mutmut_4": (".join(_D, None)", _JOIN),
    _RU + "x_question_adjudicators__mutmut_6": (".join(_D, )", _JOIN),
    # --- review/final_state.py
    _FS + "x__state__mutmut_14": (
        "key = decision.corrected_key if (state == CORRECTED) or True else None",
        _KEY_ONLY_CORRECTED,
    ),
    _FS + "x__state__mutmut_76": ("return FinalState(None, NOT_REVIEWED)", _NEVER_NOT_REVIEWED),
    _FS + "x__state__mutmut_77": ("return FinalState(qid, None)", _NEVER_NOT_REVIEWED),
    _FS + "x__state__mutmut_78": ("return FinalState(NOT_REVIEWED)", _NEVER_NOT_REVIEWED),
    _FS + "x__state__mutmut_79": ("return FinalState(qid, )", _NEVER_NOT_REVIEWED),
    _FS + "x_exploration__mutmut_6": (
        "corrected = {qid: key_of(s.key) for qid, s in states.items() "
        "if s.state == CORRECTED or s.key}",
        _STATE_KEY,
    ),
    _FS + "x_read_question_state__mutmut_25": ("review_writes.read_verdicts(conn, ),", _ONE_OF_ALL),
    _FS + "x_read_question_state__mutmut_30": (
        "review_writes.read_decisions(conn, ),",
        _ONE_OF_ALL,
    ),
    # --- review/values.py
    _VA + "x_clean_source__mutmut_3": ("source = clean_note(text, required=None)", _FALSY),
    # --- notes/changes.py
    "ai4hse_desk.notes.changes.x_column_text__mutmut_2": (
        'return json.dumps(as_json(changes, value), ensure_ascii=None, separators=(",", ":"))',
        _AS_WRITTEN,
    ),
    "ai4hse_desk.notes.changes.x_sheet_text__mutmut_2": (
        "return json.dumps(as_json(changes, value), ensure_ascii=None)",
        _AS_WRITTEN,
    ),
}

#: Mutants left for another piece of work this round (glob pattern -> why).
DEFERRED: dict[str, str] = {}
