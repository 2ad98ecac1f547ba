"""The mode registry: one place knows each mode's classes, variants and shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spit.engine import (
    ConfigError,
    Mode,
    SpeedConfig,
    SpeedGame,
    SpitConfig,
    SpitGame,
    dumps,
    get_mode,
    loads,
    mode_names,
    register_mode,
)
from spit.engine.modes import unregister_mode


def test_the_built_in_modes_are_registered_with_their_classes() -> None:
    assert mode_names() == ("spit", "speed")
    assert get_mode("spit").game_class is SpitGame
    assert get_mode("speed").config_class is SpeedConfig
    assert SpitGame(seed=1).info is get_mode("spit")
    assert SpeedGame(seed=1).info.title == "Speed"


def test_a_mode_builds_its_config_from_variant_ids_in_any_case() -> None:
    assert get_mode("spit").config(["v1", "V3"], target_score=50) == SpitConfig(
        four_stocks=True, alternating_colours=True, target_score=50
    )
    assert get_mode("speed").config(["p1b"]) == SpeedConfig(long_deal=True)


def test_unknown_modes_and_variants_are_refused_with_the_choices() -> None:
    with pytest.raises(ConfigError, match="choose from spit, speed"):
        get_mode("poker")
    with pytest.raises(
        ConfigError, match="Speed has no variant 'V1'; choose from long-deal, alternating-colours"
    ):
        get_mode("speed").config(["V1"])


def test_known_variants_keeps_only_the_modes_own() -> None:
    assert get_mode("speed").known_variants(["V1", "v3", "P1B", "V4"]) == ("V3", "P1b")
    assert get_mode("spit").known_variants(["V1", "P1b"]) == ("V1",)


def test_is_match_follows_the_config() -> None:
    assert SpitGame(SpitConfig(scoring=True), seed=1).is_match
    assert not SpitGame(SpitConfig(), seed=1).is_match
    assert SpeedGame(SpeedConfig(target_score=20), seed=1).is_match
    assert not SpeedGame(SpeedConfig(), seed=1).is_match


def test_columns_show_each_players_face_up_cards() -> None:
    spit = SpitGame(seed=3)
    assert spit.columns(0) == [(s[-1], len(s) - 1) for s in spit.stocks[0]]
    assert spit.reserve_size(1) == len(spit.spit[1])
    speed = SpeedGame(seed=3)
    assert speed.columns(1) == [(c, 0) for c in speed.hands[1]]
    assert speed.reserve_size(0) == len(speed.draw[0])


def test_fits_is_one_rank_up_or_down_and_v3_adds_colour() -> None:
    plain = SpitGame(seed=1)
    v3 = SpitGame(SpitConfig(alternating_colours=True), seed=1)
    seven_clubs, eight_clubs, eight_hearts = 6, 7, 26 + 7  # card ids: suit * 13 + rank
    assert plain.fits(eight_clubs, seven_clubs) and plain.fits(eight_hearts, seven_clubs)
    assert not plain.fits(seven_clubs, seven_clubs)
    assert v3.fits(eight_hearts, seven_clubs) != v3.fits(eight_clubs, seven_clubs)


class MirrorGame(SpitGame):
    """A third mode for the test: Spit's rules under another name."""

    mode = "mirror"


@pytest.fixture
def mirror() -> Iterator[Mode]:
    mode = Mode(
        name="mirror",
        title="Mirror",
        game_class=MirrorGame,
        config_class=SpitConfig,
        variants={"V1": "four_stocks"},
        has_moves=True,
        side_piles=False,
        reserve_name="spit cards",
        lowest_score_wins=True,
        match_rule="first to {target}",
    )
    register_mode(mode)
    yield mode
    unregister_mode("mirror")


def test_a_registered_mode_saves_loads_and_is_made_by_the_simulator(mirror: Mode) -> None:
    from spit.bots.sim import new_game

    game = new_game("mirror", ["v1"], seed=5)
    assert isinstance(game, MirrorGame) and game.config.four_stocks
    assert game.info is mirror
    again = loads(dumps(game))
    assert isinstance(again, MirrorGame) and again.fingerprint() == game.fingerprint()
