"""The status palette: every status its own colour, apart for colour-blind readers, readable.

The colour science is written out here (sRGB → CIELAB, CIE76 and CIEDE2000,
Machado 2009 dichromacy matrices, WCAG contrast) and checked against published
values, so the thresholds mean what they say:

* ΔE*ab (CIE76) ≥ 10 and ΔE00 ≥ 8 between every two palette colours, in normal
  vision and simulated deuteranopia, protanopia and tritanopia — patches a
  ΔE*ab of 10 apart are told apart at a glance (a just-noticeable difference is
  about 2.3; Sharma 2003), and ΔE00 weights chroma differences down, so its
  threshold is lower;
* WCAG 2 contrast ≥ 4.5:1 (level AA for normal text) between each chip's text
  and background, in both the light and the dark variant.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from ai4hse_desk.display.status_style import (
    CORRECT,
    MATCH_COLOURS,
    PALETTE_KEYS,
    STATUS_COLOURS,
    STATUS_PALETTE,
    outcome_label,
    palette_key,
    status_colours,
)
from ai4hse_desk.protocol.outcome import Status

Floats = npt.NDArray[np.float64]

#: Minimum ΔE*ab (CIE76) and ΔE00 (CIEDE2000) between any two palette colours.
MIN_DELTA_E76 = 10.0
MIN_DELTA_E00 = 8.0
#: WCAG 2 level AA for normal text.
MIN_CONTRAST = 4.5

#: Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear sRGB.
MACHADO_2009: dict[str, Floats] = {
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
VISIONS = (None, *MACHADO_2009)

_SRGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_D65 = np.array([0.95047, 1.0, 1.08883])


def _linear(colour: str) -> Floats:
    channels = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)


def lab(colour: str, vision: str | None = None) -> Floats:
    """CIELAB (D65) of an sRGB hex colour, as a person with ``vision`` sees it."""
    rgb = _linear(colour)
    if vision is not None:
        rgb = np.clip(MACHADO_2009[vision] @ rgb, 0.0, 1.0)
    xyz = _SRGB_TO_XYZ @ rgb / _D65
    delta = 6 / 29
    f = np.where(xyz > delta**3, np.cbrt(xyz), xyz / (3 * delta**2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e76(first: Floats, second: Floats) -> float:
    return float(np.linalg.norm(first - second))


def delta_e00(first: Floats, second: Floats) -> float:
    """CIEDE2000 (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_hue = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh) / 2)
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    h_mean = h1 + h2
    if c1 * c2 != 0:
        h_mean = (
            h_mean / 2 if abs(h1 - h2) <= 180 else (h_mean + 360 * (1 if h_mean < 360 else -1)) / 2
        )
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_c = 2 * np.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    r_t = -np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2)))) * r_c
    dl, dc, dhh = (l2 - l1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return float(np.sqrt(dl**2 + dc**2 + dhh**2 + r_t * dc * dhh))


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two sRGB hex colours."""
    weights = np.array([0.2126, 0.7152, 0.0722])
    high, low = sorted((float(weights @ _linear(first)), float(weights @ _linear(second))))[::-1]
    return (high + 0.05) / (low + 0.05)


def _variant(dark: bool) -> dict[str, tuple[str, str]]:
    return {key: shade.colours(dark=dark) for key, shade in STATUS_PALETTE.items()}


VARIANTS = pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])


# -- the colour science is right -----------------------------------------------------


def test_colour_science_matches_published_values() -> None:
    assert lab("#ffffff") == pytest.approx([100.0, 0.0, 0.0], abs=1e-3)
    assert lab("#ff0000") == pytest.approx([53.24, 80.09, 67.20], abs=0.01)
    # Sharma, Wu & Dalal (2005), table 1, pairs 1, 7 and 17
    assert delta_e00(np.array([50, 2.6772, -79.7751]), np.array([50, 0, -82.7485])) == (
        pytest.approx(2.0425, abs=1e-4)
    )
    assert delta_e00(np.array([50, 0, 0]), np.array([50, -1, 2])) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e00(np.array([50, 2.5, 0]), np.array([73, 25, -18])) == (
        pytest.approx(27.1492, abs=1e-4)
    )
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    # a dichromat sees red and green alike, a tritanope blue and green
    red, green, blue = "#d55e00", "#009e73", "#0072b2"
    assert delta_e76(lab(red, "deuteranopia"), lab(green, "deuteranopia")) < delta_e76(
        lab(red), lab(green)
    )
    assert delta_e76(lab(blue, "tritanopia"), lab(green, "tritanopia")) < delta_e76(
        lab(blue), lab(green)
    )
    for vision in MACHADO_2009:
        assert lab("#808080", vision) == pytest.approx(lab("#808080"), abs=0.5)  # greys stay


# -- the palette ---------------------------------------------------------------------


def test_every_status_and_correct_has_its_own_entry() -> None:
    assert set(PALETTE_KEYS) == {CORRECT} | {status.value for status in Status}
    assert len({shade.label for shade in STATUS_PALETTE.values()}) == len(PALETTE_KEYS)
    assert palette_key(Status.VALID, correct=True) == CORRECT
    assert palette_key(Status.VALID, correct=False) == "valid"
    assert palette_key(Status.MISSING, correct=True) == "missing"  # only a valid attempt is correct
    assert outcome_label(Status.VALID, correct=True) == "Valid ✓"
    assert outcome_label(Status.VALID) == "Valid ✗"
    assert outcome_label(Status.WRONG_LENGTH) == "Wrong length"
    assert status_colours(Status.VALID, True) != status_colours(Status.VALID, False)
    assert status_colours(Status.MALFORMED, dark=True) == STATUS_PALETTE["malformed"].dark
    assert MATCH_COLOURS[True] == STATUS_PALETTE[CORRECT].light
    assert MATCH_COLOURS[False] == STATUS_PALETTE["valid"].light
    assert STATUS_COLOURS[Status.MISSING] != STATUS_COLOURS[Status.WRONG_LENGTH]
    assert STATUS_COLOURS[Status.MULTIPLE] != STATUS_COLOURS[Status.MALFORMED]


@VARIANTS
def test_colours_are_pairwise_distinct(dark: bool) -> None:
    backgrounds = [background for background, _ in _variant(dark).values()]
    assert len({colour.lower() for colour in backgrounds}) == len(backgrounds)


@VARIANTS
@pytest.mark.parametrize("vision", VISIONS, ids=["normal", *MACHADO_2009])
def test_colours_stay_apart_for_colour_vision_deficiencies(dark: bool, vision: str | None) -> None:
    colours = {key: background for key, (background, _) in _variant(dark).items()}
    seen = {key: lab(colour, vision) for key, colour in colours.items()}
    for a, b in itertools.combinations(seen, 2):
        assert delta_e76(seen[a], seen[b]) >= MIN_DELTA_E76, (a, b)
        assert delta_e00(seen[a], seen[b]) >= MIN_DELTA_E00, (a, b)


@VARIANTS
def test_text_is_readable_on_every_background(dark: bool) -> None:
    for key, (background, text) in _variant(dark).items():
        assert contrast(background, text) >= MIN_CONTRAST, key
    if not dark:  # the light variant keeps black text at AAA
        for key, (background, text) in _variant(dark).items():
            assert (text, contrast(background, text) >= 7) == ("#000000", True), key


def test_chips_stand_out_from_their_window() -> None:
    for key, (background, _) in _variant(dark=False).items():
        assert delta_e76(lab(background), lab("#ffffff")) >= MIN_DELTA_E76, key
    for key, (background, _) in _variant(dark=True).items():
        for window in ("#1e1e1e", "#353535"):
            assert delta_e76(lab(background), lab(window)) >= MIN_DELTA_E76, key
