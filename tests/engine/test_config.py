"""Rules configurations (V1-V4, H4): checked values and plain JSON form."""

from __future__ import annotations

import dataclasses

import pytest

from spit.engine import ConfigError, SpitConfig


def test_defaults_are_plain_spit_with_the_h4_limit() -> None:
    config = SpitConfig()
    assert config.variants == ()
    assert (config.n_stocks, config.layout_size) == (5, 15)
    assert (config.target_score, config.round_limit) == (100, 1000)


def test_v1_four_stocks_make_a_layout_of_10() -> None:
    config = SpitConfig(four_stocks=True)
    assert (config.n_stocks, config.layout_size) == (4, 10)


def test_from_variants_any_combination() -> None:
    config = SpitConfig.from_variants(["v1", " V3 ", "V4"], round_limit=9)
    assert config.variants == ("V1", "V3", "V4")
    assert config.four_stocks and config.alternating_colours and config.scoring
    assert not config.choose_pile and config.round_limit == 9
    assert SpitConfig.from_variants(["V2"]).choose_pile


def test_unknown_variant_is_refused_with_the_choices() -> None:
    with pytest.raises(ConfigError, match="four-stocks, choose-pile, alternating-colours, scoring"):
        SpitConfig.from_variants(["V5"])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"four_stocks": 1},
        {"scoring": "yes"},
        {"target_score": 0},
        {"target_score": 100_001},
        {"target_score": 50.0},
        {"round_limit": 0},
        {"round_limit": True},
        {"round_limit": 10**12},
    ],
)
def test_bad_values_are_refused(kwargs: dict) -> None:
    with pytest.raises(ConfigError, match=r"\S"):
        SpitConfig(**kwargs)


def test_plain_form_round_trip_and_unknown_keys() -> None:
    config = SpitConfig(choose_pile=True, target_score=50)
    assert SpitConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ConfigError, match="unknown config keys: jokers"):
        SpitConfig.from_dict({"jokers": True})
    with pytest.raises(ConfigError):
        SpitConfig.from_dict(["V1"])


def test_configs_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SpitConfig().scoring = True  # type: ignore[misc]
