"""Wilson score interval for one repetition's exact accuracy (protocol.md section 6).

The protocol reports uncertainty per repetition only: repeated answers to the
same questions are not independent evidence, so there is no pooled interval.
"""

from __future__ import annotations

import math

#: Two-sided 95% normal quantile fixed by the protocol.
Z_95 = 1.959964


def wilson_interval(k: int, m: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval for ``k`` successes out of ``m`` trials.

    With ``p = k / m``::

        centre     = (p + z²/2m) / (1 + z²/m)
        half-width = z · sqrt(p(1 − p)/m + z²/4m²) / (1 + z²/m)

    Args:
        k: number of correct attempts, ``0 <= k <= m``.
        m: number of attempts, ``m >= 0``.
        z: normal quantile; the protocol fixes 1.959964 (95%).

    Returns:
        ``(low, high)``, or ``None`` when ``m == 0`` (no interval). The exact
        interval always satisfies ``0 <= low <= p <= high <= 1``; the bounds
        are clamped to those limits only to absorb floating-point noise (e.g.
        ``k == 0`` giving a lower bound of 1e-20 instead of 0).

    Raises:
        ValueError: if ``m < 0`` or ``k`` is outside ``[0, m]``.
    """
    if m < 0 or k < 0 or k > m:
        raise ValueError(f"need 0 <= k <= m, got k={k}, m={m}")
    if m == 0:
        return None
    p = k / m
    z2 = z * z
    denominator = 1.0 + z2 / m
    centre = (p + z2 / (2.0 * m)) / denominator
    half_width = z * math.sqrt(p * (1.0 - p) / m + z2 / (4.0 * m * m)) / denominator
    return min(max(0.0, centre - half_width), p), max(min(1.0, centre + half_width), p)
