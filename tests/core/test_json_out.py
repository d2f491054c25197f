"""The CLI's JSON printer: the C-encoder route prints what ``json.dumps(indent=2)`` prints."""

from __future__ import annotations

import io
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.cli.json_out import dumps_indented, write_json


def _reference(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=True, allow_nan=False)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_keys = st.text() | st.integers() | st.booleans() | st.none()
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
        | st.dictionaries(_keys, inner, max_size=3)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(_values)
def test_same_text_as_the_pure_python_encoder(value: object) -> None:
    assert dumps_indented(value) == _reference(value)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _values, min_size=1, max_size=4))
def test_write_json_prints_the_indented_document(document: dict[str, object]) -> None:
    out = io.StringIO()
    write_json(out, document)
    assert out.getvalue() == _reference(document) + "\n"


def test_a_rescore_like_document_and_control_characters() -> None:
    run = {
        "run_id": "r\u202e1",
        "scored": True,
        "exact_accuracy": 0.3075,
        "errors": {"parse_error": 8, "by_status": {"valid": 390, "missing": 3}},
        "repetitions": [{"repetition": 1, "wilson_low": 0.2278}, {}],
        "slices": {"topic": {"PPE": 0.5}},
        "empty": [],
        "consistency_index": None,
    }
    document = {"audit": {"path": "/tmp/a\x1b.sqlite"}, "runs": [run, run]}
    text = dumps_indented(document)
    assert text == _reference(document)
    assert text.isascii()
    assert json.loads(text) == document


@pytest.mark.parametrize("bad", [math.nan, [1, {"x": math.inf}], {"k": object()}])
def test_what_json_cannot_hold_is_refused_alike(bad: object) -> None:
    with pytest.raises((ValueError, TypeError)) as expected:
        _reference(bad)
    with pytest.raises(expected.type):
        dumps_indented(bad)


def test_without_the_c_accelerator_the_text_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from ai4hse_desk.cli import json_out

    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    monkeypatch.setattr(json_out, "_FLAT", [])
    value = {"runs": [{"a": [1, 2.5, "x"], "b": {"c": None}}], "n": 3}
    assert dumps_indented(value) == _reference(value)
