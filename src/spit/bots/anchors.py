"""The fixed ratings of the computer levels, per mode: the anchors of everyone's rating.

Fitted by ``spit tournament`` (a round-robin of the four levels, both seats;
Bradley–Terry ratings on the Elo scale with medium fixed at 1500), so that a
person's rating means the same on every machine. Made with (docs/bots.md):

    spit tournament --levels easy,medium,hard,expert --games 1000 --mode spit --seed 2026
    spit tournament --levels easy,medium,hard,expert --games 1000 --mode speed --seed 2026

Re-run both and replace the numbers whenever a level's play or reaction time
changes.
"""

from __future__ import annotations

#: ``ANCHORS[mode][level]``: the level's rating in that mode.
ANCHORS: dict[str, dict[str, float]] = {
    "spit": {"easy": 916.5, "medium": 1500.0, "hard": 2037.6, "expert": 2626.3},
    "speed": {"easy": 1251.5, "medium": 1500.0, "hard": 1728.5, "expert": 2000.1},
}
