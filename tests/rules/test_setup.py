"""Setting up a game: players, names, rounds, the first dealer, and the rule variants
looked up by name."""

from __future__ import annotations

import pytest

from scorekeeper.rules.game import evaluate
from scorekeeper.rules.messages import SetupError
from scorekeeper.rules.table import (
    Table,
    clean_names,
    full_game_rounds,
    verify_first_dealer,
    verify_player_count,
    verify_rounds,
)
from scorekeeper.rules.variants import (
    BID_RULES,
    BidReveal,
    BidRule,
    GameRules,
    parse_bid_reveal,
    parse_bid_rule,
)

from .helpers import FULL_ROUNDS, NAMES, assert_refused, make_table

# -- Players and names ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_may_play(players: int) -> None:
    verify_player_count(players)
    assert clean_names(NAMES[:players]) == NAMES[:players]
    assert make_table(players).seats == players


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (2, "Wizard is played by 3 to 6 players, not 2."),
        (7, "Wizard is played by 3 to 6 players, not 7."),
    ],
)
def test_two_or_seven_players_are_refused(players: int, message: str) -> None:
    names = [f"Player {seat + 1}" for seat in range(players)]
    for refuse in (
        lambda: verify_player_count(players),
        lambda: clean_names(names),
        lambda: full_game_rounds(players),
        lambda: Table(tuple(names), 0, GameRules(rounds=1)),
    ):
        with pytest.raises(SetupError) as caught:
            refuse()
        assert_refused(caught.value, SetupError, message)


def test_names_are_trimmed() -> None:
    assert clean_names(["  Thomas ", "\tUte\n", "Kevin"]) == ("Thomas", "Ute", "Kevin")
    # Only trimmed: what stands between the ends stays as typed.
    assert clean_names(["Anna  Lena", "Ute", "Kevin"])[0] == "Anna  Lena"


def test_names_of_24_characters_are_allowed() -> None:
    assert clean_names(["A" * 24, "Ute", "K"]) == ("A" * 24, "Ute", "K")


@pytest.mark.parametrize(
    "name",
    [
        "Kim \U0001f9d1\u200d\U0001f680",
        "\U0001f9d9\u200d\u2642\ufe0f Merlin",
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Eng",
    ],
    ids=["astronaut", "mage", "flag-of-england"],
)
def test_a_name_with_joined_emoji_is_taken_as_it_shows(name: str) -> None:
    assert clean_names([name, "Ute", "Kevin"])[0] == name


@pytest.mark.parametrize(
    ("names", "field", "message"),
    [
        (
            ["Thomas", "   ", "Kevin"],
            "players[1]",
            "Player 2 has no name: give every player a name of 1 to 24 characters.",
        ),
        (
            ["", "Ute", "Kevin"],
            "players[0]",
            "Player 1 has no name: give every player a name of 1 to 24 characters.",
        ),
        (
            ["Thomas", "B" * 25, "Kevin"],
            "players[1]",
            f"The name {'B' * 25} is too long: a name has at most 24 characters.",
        ),
        (
            ["Thomas", "Ute", " UTE "],
            "players[2]",
            "“Ute” and “UTE” count as one name: give every player a different name.",
        ),
        (  # one name for the search and the statistics: İ is i, Σ and ς are σ
            ["İlker", "ilker", "Kevin"],
            "players[1]",
            "“İlker” and “ilker” count as one name: give every player a different name.",
        ),
        (
            ["ΟΔΟΣ", "Ute", "Οδοσ"],
            "players[2]",
            "“ΟΔΟΣ” and “Οδοσ” count as one name: give every player a different name.",
        ),
        (  # a Cyrillic А beside a Latin A
            ["Ann", "Bob", "\u0410nn"],
            "players[2]",
            "“Ann” and “\u0410nn” look alike: give every player a name the others can tell apart.",
        ),
        (  # full-width letters are the plain ones (NFKC)
            ["Ann", "Bob", "\uff21nn"],
            "players[2]",
            "“Ann” and “\uff21nn” count as one name: give every player a different name.",
        ),
        (
            ["Thomas", "Ute", "Ke\x00vin"],
            "players[2]",
            "The name of player 3 contains U+0000, which shows nothing there: use letters, "
            "digits, spaces, punctuation and emoji.",
        ),
        (
            ["Thomas", "U\ud800te", "Kevin"],
            "players[1]",
            "The name of player 2 contains U+D800, which shows nothing there: use letters, "
            "digits, spaces, punctuation and emoji.",
        ),
        (  # a direction override alone, outside any emoji's sequence
            ["Thomas", "Ute", "Ke\u202evin"],
            "players[2]",
            "The name of player 3 contains U+202E, which shows nothing there: use letters, "
            "digits, spaces, punctuation and emoji.",
        ),
    ],
    ids=[
        "blank",
        "empty",
        "too-long",
        "same-name-other-case",
        "turkish-dotted-i",
        "greek-final-sigma",
        "cyrillic-look-alike",
        "full-width",
        "nul",
        "lone-surrogate",
        "direction-override",
    ],
)
def test_names_have_1_to_24_characters_and_are_unique_ignoring_case(
    names: list[str], field: str, message: str
) -> None:
    with pytest.raises(SetupError) as caught:
        clean_names(names)
    assert_refused(caught.value, SetupError, message)
    assert caught.value.field == field


# -- Rounds --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), list(FULL_ROUNDS.items()))
def test_full_game_has_60_over_players_rounds(players: int, rounds: int) -> None:
    assert full_game_rounds(players) == rounds
    assert len(evaluate(make_table(players), {}).rounds) == rounds


@pytest.mark.parametrize(("players", "rounds"), [(3, 1), (3, 19), (3, 20), (6, 1), (6, 10)])
def test_shorter_game_has_1_to_full_count_rounds(players: int, rounds: int) -> None:
    verify_rounds(rounds, players)
    assert len(evaluate(make_table(players, rounds=rounds), {}).rounds) == rounds


@pytest.mark.parametrize(
    ("players", "rounds", "message"),
    [
        (3, 0, "A game of 3 players has 1 to 20 rounds, not 0."),
        (3, 21, "A game of 3 players has 1 to 20 rounds, not 21."),
        (4, 16, "A game of 4 players has 1 to 15 rounds, not 16."),
        (6, 11, "A game of 6 players has 1 to 10 rounds, not 11."),
    ],
)
def test_game_longer_than_full_or_without_rounds_is_refused(
    players: int, rounds: int, message: str
) -> None:
    with pytest.raises(SetupError) as caught:
        make_table(players, rounds=rounds)
    assert_refused(caught.value, SetupError, message)
    assert caught.value.field == "rules.rounds"


# -- First dealer --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seat"), [(3, 0), (3, 2), (6, 5)])
def test_first_dealer_is_one_of_the_seats(players: int, seat: int) -> None:
    verify_first_dealer(seat, players)
    assert make_table(players, first_dealer=seat).dealer(1) == seat


@pytest.mark.parametrize(
    ("players", "seat", "message"),
    [
        (3, 3, "The first dealer is a seat from 0 to 2, not 3."),
        (3, -1, "The first dealer is a seat from 0 to 2, not −1."),
        (6, 6, "The first dealer is a seat from 0 to 5, not 6."),
    ],
)
def test_first_dealer_outside_the_seats_is_refused(players: int, seat: int, message: str) -> None:
    with pytest.raises(SetupError) as caught:
        make_table(players, first_dealer=seat)
    assert_refused(caught.value, SetupError, message)
    assert caught.value.field == "first_dealer"


# -- Choosing the rules by name ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "restricts_leader", "restricts_other", "zero_without", "zero_with"),
    [
        ("standard", False, False, True, True),
        ("plus_minus_one", True, True, False, True),
        ("canadian", True, False, True, True),
    ],
)
def test_bid_rule_policy_is_looked_up_by_name(
    name: str, restricts_leader: bool, restricts_other: bool, zero_without: bool, zero_with: bool
) -> None:
    policy = BID_RULES[parse_bid_rule(name)]
    assert policy.name == name
    assert policy.restricts(dealer_leads_outright=True) is restricts_leader
    assert policy.restricts(dealer_leads_outright=False) is restricts_other
    assert policy.zero_always_allowed(last_bidder_may_bid_zero=False) is zero_without
    assert policy.zero_always_allowed(last_bidder_may_bid_zero=True) is zero_with


@pytest.mark.parametrize("rule", list(BidRule))
def test_parse_bid_rule_knows_every_rule(rule: BidRule) -> None:
    assert parse_bid_rule(rule.value) is rule


@pytest.mark.parametrize("reveal", list(BidReveal))
def test_parse_bid_reveal_knows_every_mode(reveal: BidReveal) -> None:
    assert parse_bid_reveal(reveal.value) is reveal


def test_parse_bid_rule_refuses_unknown_name() -> None:
    with pytest.raises(SetupError) as caught:
        parse_bid_rule("hearts")
    assert_refused(
        caught.value,
        SetupError,
        "The bid rule is one of standard, plus_minus_one, canadian, not “hearts”.",
    )
    assert caught.value.field == "rules.bid_rule"


def test_parse_bid_reveal_refuses_unknown_name() -> None:
    with pytest.raises(SetupError) as caught:
        parse_bid_reveal("hidden")
    assert_refused(
        caught.value, SetupError, "The bid reveal is one of open, covered, secret, not “hidden”."
    )
    assert caught.value.field == "rules.bid_reveal"


@pytest.mark.parametrize(
    "names",
    [
        ["Ann", "Anna", "Bob"],
        ["Jörg", "Jorg", "Bob"],
        ["Ваня", "Ann", "Bob"],
        ["Σοφία", "Sofia", "Bob"],
        ["Kim", "Tim", "Jim"],
    ],
)
def test_names_that_only_resemble_each_other_may_sit_together(names: list[str]) -> None:
    assert list(clean_names(names)) == names
