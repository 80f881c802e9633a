"""The trick tally (rules/tally.py): the winners of a round's tricks in order, each player's
tricks won so far and what they still need, and the tricks step's counts from a complete
tally."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import Suit, TrumpCard, Turned
from scorekeeper.rules.game import RoundRecord, evaluate
from scorekeeper.rules.messages import TrickError
from scorekeeper.rules.table import Table
from scorekeeper.rules.tally import (
    Need,
    Progress,
    nobody_allowed,
    progress,
    tallied_tricks,
    tricks_so_far,
    tricks_won,
    verify_tally,
    verify_trick_winner,
    won_so_far,
)
from scorekeeper.rules.variants import RoundPlan, Special

from .helpers import assert_refused, make_table

TABLE = make_table(3)


def test_tricks_won_counts_each_seats_tricks_in_seat_order() -> None:
    assert tricks_won(3, [2, 0, 2, 1, 2]) == (1, 1, 3)
    assert tricks_won(3, []) == (0, 0, 0)


def test_a_trick_won_by_nobody_counts_for_no_seat() -> None:
    assert tricks_won(3, [1, None, 1]) == (0, 2, 0)


@pytest.mark.parametrize(
    ("tapped", "tally", "so_far"),
    [
        ((None, None, None), (), 0),
        ((None, None, None), (1, 0), 2),
        ((None, None, None), (1, None), 1),  # the Bomb's trick: won by nobody
        ((2, None, None), (1,), 2),  # counts tapped in come first
        ((2, 1, None), (1,), 3),  # the one missing filled in from the sum
        ((0, None, None), (1, 1), 0),
    ],
)
def test_the_tricks_so_far_are_those_tapped_in_else_the_tallys(
    tapped: tuple[int | None, ...], tally: tuple[int | None, ...], so_far: int
) -> None:
    assert tricks_so_far(3, tapped, tally) == so_far


@pytest.mark.parametrize(
    ("tapped", "tally", "won"),
    [
        ((None, None, None), (0, 0), (2, 0, 0)),
        ((1, 1, 0), (0, 0), (1, 1, 0)),  # counts tapped in come first
        ((1, None, None), (0, 0), (1, None, None)),  # the others not known yet
        ((1, 2, None), (0, 0), (1, 2, 0)),  # the one missing filled in from the sum
    ],
)
def test_each_seats_tricks_so_far_are_those_tapped_in_else_the_tallys(
    tapped: tuple[int | None, ...], tally: tuple[int | None, ...], won: tuple[int | None, ...]
) -> None:
    assert won_so_far(3, tapped, tally) == won


def test_the_tricks_step_is_filled_in_only_from_a_complete_tally() -> None:
    assert tallied_tricks(TABLE, 3, [0, 2]) is None
    assert tallied_tricks(TABLE, 3, [0, 2, 0]) == (2, 0, 1)


def test_a_complete_tally_with_a_bombs_trick_adds_up_to_one_trick_less() -> None:
    assert tallied_tricks(TABLE, 3, [0, None, 1]) == (1, 1, 0)


@given(st.data())
def test_a_complete_tally_of_seats_adds_up_to_the_cards(data: st.DataObject) -> None:
    number = data.draw(st.integers(1, 20))
    tally = data.draw(st.lists(st.integers(0, 2), min_size=number, max_size=number))
    counts = tallied_tricks(TABLE, number, tally)
    assert counts is not None
    assert sum(counts) == number


@pytest.mark.parametrize(
    ("bid", "won", "left", "need", "missing", "over"),
    [
        (2, 1, 3, Need.NEEDS, 1, 0),  # "needs 1"
        (2, 2, 1, Need.ENOUGH, 0, 0),  # "no more tricks": one more would miss the bid
        (2, 2, 0, Need.MADE, 0, 0),  # "made it": every trick played
        (0, 0, 4, Need.ENOUGH, 0, 0),  # wants none, has none, four tricks still to play
        (0, 0, 0, Need.MADE, 0, 0),
        (1, 2, 0, Need.OVER, 0, 1),  # "1 over"
        (3, 0, 2, Need.OUT_OF_REACH, 3, 0),  # fewer tricks left than needed
        (2, 0, 2, Need.NEEDS, 2, 0),  # still possible: every trick left
    ],
)
def test_what_a_player_still_needs(
    bid: int, won: int, left: int, need: Need, missing: int, over: int
) -> None:
    player = Progress(seat=0, bid=bid, won=won, left=left)
    assert (player.need, player.missing, player.over) == (need, missing, over)


def test_a_hidden_bid_tells_nothing_of_what_is_needed() -> None:
    player = Progress(seat=0, bid=None, won=1, left=2)
    assert player.need is None
    assert player.over == 0


def test_progress_of_a_round_in_play() -> None:
    # Round 4: Thomas bid 1, Ute 2, Kevin 0; Ute, Thomas, Ute won the first three tricks.
    shown = progress(4, [1, 2, 0], [1, 0, 1])
    assert [(p.seat, p.won, p.left, p.need) for p in shown] == [
        (0, 1, 1, Need.ENOUGH),
        (1, 2, 1, Need.ENOUGH),
        (2, 0, 1, Need.ENOUGH),
    ]
    shown = progress(4, [1, 2, 0], [1, 0, 0, 2])
    assert [p.need for p in shown] == [Need.OVER, Need.OUT_OF_REACH, Need.OVER]


def test_more_tricks_than_cards_are_refused() -> None:
    with pytest.raises(TrickError) as raised:
        verify_trick_winner(TABLE, 2, [0, 1], 2)
    assert_refused(raised.value, TrickError, "All 2 tricks of round 2 are tallied already.")
    assert raised.value.field == "winner"


def test_a_seat_the_table_does_not_have_is_refused() -> None:
    with pytest.raises(TrickError) as raised:
        verify_trick_winner(TABLE, 2, [], 3)
    assert_refused(raised.value, TrickError, "There is no seat 3 at this table to win a trick.")


def test_nobody_wins_a_trick_only_where_a_bomb_can_be_played() -> None:
    assert not nobody_allowed(TABLE, [])
    with pytest.raises(TrickError) as raised:
        verify_trick_winner(TABLE, 2, [0], None)
    assert_refused(
        raised.value,
        TrickError,
        "Every trick of round 2 is won by a player: only a Bomb's trick goes to nobody.",
    )


def test_each_seat_may_win_the_next_trick_while_one_is_left() -> None:
    for seat in range(3):
        verify_trick_winner(TABLE, 3, [0, 1], seat)


def test_the_round_view_carries_the_tally() -> None:
    record = RoundRecord(trump=TrumpCard(Turned.RED, Suit.RED), bids=(0, 1, 0), tally=(1,))
    view = evaluate(TABLE, {1: record}).round(1)
    assert view.tally == (1,)
    assert evaluate(TABLE, {}).round(1).tally == ()


BOMB_TABLE = make_table(3, specials=frozenset({Special.BOMB}))


def test_with_the_bomb_in_the_deck_one_trick_a_round_goes_to_nobody() -> None:
    assert nobody_allowed(BOMB_TABLE, [0])
    verify_trick_winner(BOMB_TABLE, 3, [0], None)
    assert not nobody_allowed(BOMB_TABLE, [0, None])
    with pytest.raises(TrickError):
        verify_trick_winner(BOMB_TABLE, 3, [0, None], None)


def test_a_tally_with_the_bombs_trick_fills_in_tricks_adding_up_to_cards_minus_one() -> None:
    counts = tallied_tricks(BOMB_TABLE, 3, [0, None, 2])
    assert counts == (1, 0, 1)
    assert sum(counts) == 3 - 1


def test_an_odd_hands_round_is_tallied_to_its_own_card_count() -> None:
    odd = make_table(4, plan=RoundPlan.ODD_HANDS)
    assert tallied_tricks(odd, 2, [0, 1]) is None  # round 2 deals 3 cards
    assert tallied_tricks(odd, 2, [0, 1, 1]) == (1, 2, 0, 0)
    with pytest.raises(TrickError):
        verify_trick_winner(odd, 2, [0, 1, 1], 2)


# -- A tally given whole (an import) ---------------------------------------------------------


@given(st.lists(st.one_of(st.none(), st.integers(-1, 3)), max_size=5))
def test_a_tally_given_whole_is_taken_as_its_taps_would_be(tally: list[int | None]) -> None:
    def tapped() -> bool:
        for index, winner in enumerate(tally):
            try:
                verify_trick_winner(BOMB_TABLE, 3, tally[:index], winner)
            except TrickError:
                return False
        return True

    try:
        verify_tally(BOMB_TABLE, 3, tally)
    except TrickError:
        assert not tapped()
    else:
        assert tapped()


@pytest.mark.parametrize(
    ("table", "number", "tally", "field", "message"),
    [
        (TABLE, 3, [0, 1, 2, 0], "tally", "The tally lists more tricks than round 3's 3 cards."),
        (TABLE, 1, [0, 0], "tally", "The tally lists more tricks than round 1's 1 card."),
        (
            TABLE,
            3,
            [0, 3],
            "tally[1]",
            "The tally gives trick 2 to a seat this table does not have.",
        ),
        (
            TABLE,
            3,
            [None],
            "tally[0]",
            "The tally gives trick 1 to nobody, but only a Bomb's trick goes to nobody, and "
            "this game is played without the Bomb.",
        ),
        (
            BOMB_TABLE,
            3,
            [None, None],
            "tally[1]",
            "The tally gives trick 2 to nobody, but only one trick a round, the Bomb's, goes "
            "to nobody.",
        ),
    ],
)
def test_a_tally_given_whole_is_refused_naming_its_trick(
    table: Table, number: int, tally: list[int | None], field: str, message: str
) -> None:
    with pytest.raises(TrickError) as raised:
        verify_tally(table, number, tally)
    assert_refused(raised.value, TrickError, message)
    assert raised.value.field == field
