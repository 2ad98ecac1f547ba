"""Every card reads at WCAG AA (4.5:1) in every palette, also greyed by NO_COLOR
and on 16- and 256-colour terminals (issue 9)."""

from __future__ import annotations

import pytest
from rich.color import Color as RichColor
from rich.color import ColorSystem
from textual.color import Color as TextualColor

from spit.engine.cards import SUIT_SYMBOLS
from spit.tui.render import PALETTES, contrast_ratio, relative_luminance

AA = 4.5


def test_contrast_ratio_matches_wcag_examples() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # just fails AA
    assert contrast_ratio("#ff0000", "#ffffff") == pytest.approx(4.0, abs=0.01)
    assert contrast_ratio("#ffffff", "#000000") == contrast_ratio("#000000", "#ffffff")
    assert relative_luminance((255, 255, 255)) == pytest.approx(1.0)


def shown(colour: str, system: str) -> tuple[int, int, int]:
    """The colour a terminal shows for ``colour``: as is, greyed by NO_COLOR
    (Textual's monochrome filter), or the nearest of 256 or of 16 colours."""
    rich = RichColor.parse(colour)
    if system == "truecolor":
        return rich.get_truecolor()
    if system == "no-color":
        grey = TextualColor.from_rich_color(rich).monochrome
        return (grey.r, grey.g, grey.b)
    target = ColorSystem.EIGHT_BIT if system == "256" else ColorSystem.STANDARD
    return rich.downgrade(target).get_truecolor()


PAIRS = [
    (name, SUIT_SYMBOLS[i], ink, palette.face)
    for name, palette in PALETTES.items()
    for i, ink in enumerate(palette.inks)
]


@pytest.mark.parametrize("system", ["truecolor", "256", "16", "no-color"])
@pytest.mark.parametrize(("palette", "suit", "ink", "face"), PAIRS)
def test_every_card_reads_at_aa(palette: str, suit: str, ink: str, face: str, system: str) -> None:
    ratio = contrast_ratio(shown(ink, system), shown(face, system))
    assert ratio >= AA, f"{palette} {suit} {ink} on {face} ({system}): {ratio:.2f}"


def test_the_palettes_asked_for() -> None:
    assert set(PALETTES) == {"default", "colour-blind", "four-colour", "light"}
    four = PALETTES["four-colour"].inks
    assert len(set(four)) == 4  # ♣ ♦ ♥ ♠ each their own colour
    default = PALETTES["default"].inks
    assert default[1] == default[2] != default[0] == default[3]  # red and black


@pytest.mark.parametrize("system", ["truecolor", "256", "16", "no-color"])
def test_the_light_theme_keys_read_at_aa(system: str) -> None:
    light = PALETTES["light"]
    assert light.key is not None and light.screen is not None
    ratio = contrast_ratio(shown(light.key, system), shown(light.screen, system))
    assert ratio >= AA, f"keys {light.key} on {light.screen} ({system}): {ratio:.2f}"
