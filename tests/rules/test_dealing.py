"""Dealing: the cards of each round, the dealer passing to the left, the bid order, and
the trump."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import Suit, TrumpCard, Turned, trump_from
from scorekeeper.rules.game import RoundState, evaluate
from scorekeeper.rules.messages import OutOfTurnError, TrumpError
from scorekeeper.rules.referee import verify_trump_turn
from scorekeeper.rules.table import cards_in_round, full_game_rounds

from .helpers import assert_refused, make_table, seat_zero_takes_all

# -- Cards ---------------------------------------------------------------------------------


def test_suits_are_colours_with_their_people() -> None:
    people = {suit.value: suit.people for suit in Suit}
    assert people == {"blue": "Humans", "green": "Elves", "red": "Dwarves", "yellow": "Giants"}


@pytest.mark.parametrize("round_number", [1, 2, 7, 20])
def test_round_deals_r_cards_to_each_player(round_number: int) -> None:
    assert cards_in_round(round_number) == round_number
    assert evaluate(make_table(3), {}).round(round_number).cards == round_number


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_last_round_of_a_full_game_deals_every_card(players: int) -> None:
    table = make_table(players)
    last = full_game_rounds(players)
    assert last * players == 60
    assert table.deals_every_card(last)
    assert not any(table.deals_every_card(number) for number in range(1, last))


@pytest.mark.parametrize(
    ("round_number", "players", "every_card"),
    [
        *[(20, 3, True), (15, 4, True), (12, 5, True), (10, 6, True)],
        *[(19, 3, False), (14, 4, False), (10, 5, False), (10, 4, False), (5, 6, False)],
    ],
)
def test_only_a_round_dealing_all_60_cards_has_no_trump_card(
    round_number: int, players: int, every_card: bool
) -> None:
    assert make_table(players).deals_every_card(round_number) is every_card


def test_shorter_game_turns_a_trump_card_every_round() -> None:
    table = make_table(3, rounds=19)
    game = evaluate(table, {n: seat_zero_takes_all(n, 3) for n in range(1, 19)})
    assert game.round(19).state is RoundState.TRUMP
    assert game.round(19).trump is None
    verify_trump_turn(game, 19)


# -- Dealer and bid order ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first_dealer", "players", "round_number", "expected"),
    [
        (0, 3, 1, 0),
        (0, 3, 2, 1),
        (0, 3, 3, 2),
        (0, 3, 4, 0),
        (2, 4, 1, 2),
        (2, 4, 2, 3),
        (2, 4, 3, 0),
        (5, 6, 2, 0),
        (5, 6, 10, 2),
    ],
)
def test_dealer_passes_to_the_left(
    first_dealer: int, players: int, round_number: int, expected: int
) -> None:
    table = make_table(players, first_dealer=first_dealer)
    assert table.dealer(round_number) == expected
    assert evaluate(table, {}).round(round_number).dealer == expected


@pytest.mark.parametrize(
    ("dealer_seat", "players", "order"),
    [
        (0, 3, [1, 2, 0]),
        (2, 3, [0, 1, 2]),
        (2, 4, [3, 0, 1, 2]),
        (1, 5, [2, 3, 4, 0, 1]),
        (5, 6, [0, 1, 2, 3, 4, 5]),
    ],
)
def test_dealer_bids_last(dealer_seat: int, players: int, order: list[int]) -> None:
    table = make_table(players, first_dealer=dealer_seat)
    assert table.bid_order(1) == order
    assert evaluate(table, {}).round(1).bid_order == order


# -- Trump ---------------------------------------------------------------------------------


@pytest.mark.parametrize("suit", list(Suit))
def test_suit_card_makes_its_suit_trump(suit: Suit) -> None:
    assert trump_from(suit.value) == TrumpCard(Turned(suit.value), suit)


def test_jester_means_no_trump() -> None:
    assert trump_from("jester") == TrumpCard(Turned.JESTER, None)


def test_wizard_lets_dealer_choose_suit() -> None:
    trump = trump_from("wizard", "red")
    assert trump.turned is Turned.WIZARD  # "Wizard turned,
    assert trump.suit is Suit.RED  # dealer chose red"


def test_wizard_without_chosen_suit_is_refused() -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from("wizard")
    assert_refused(
        caught.value,
        TrumpError,
        "A Wizard was turned, so the dealer chooses the trump: give the chosen suit, "
        "one of blue, green, red, yellow.",
    )


@pytest.mark.parametrize(
    ("turned", "chosen", "message"),
    [
        (
            "purple",
            None,
            "The turned card is one of blue, green, red, yellow, jester, wizard, not “purple”.",
        ),
        (
            "none",
            None,
            "The turned card is one of blue, green, red, yellow, jester, wizard, not “none”.",
        ),
        ("wizard", "purple", "The dealer chooses one of blue, green, red, yellow, not “purple”."),
        (
            "red",
            "blue",
            "Only a turned Wizard lets the dealer choose the trump: leave out the chosen suit.",
        ),
        (
            "jester",
            "blue",
            "Only a turned Wizard lets the dealer choose the trump: leave out the chosen suit.",
        ),
    ],
    ids=["unknown-card", "no-card-is-set-by-the-app", "unknown-suit", "suit-chose", "jester-chose"],
)
def test_trump_the_rules_do_not_know_is_refused(
    turned: str, chosen: str | None, message: str
) -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from(turned, chosen)
    assert_refused(caught.value, TrumpError, message)


def test_round_dealing_every_card_has_no_trump() -> None:
    table = make_table(6)
    game = evaluate(table, {n: seat_zero_takes_all(n, 6) for n in range(1, 10)})
    last = game.round(10)
    assert last.trump == TrumpCard(Turned.NONE, None)
    assert last.state is RoundState.BIDDING  # straight to the bids, nobody is asked
    with pytest.raises(OutOfTurnError) as caught:
        verify_trump_turn(game, 10)
    assert_refused(
        caught.value,
        OutOfTurnError,
        "Round 10 deals every card, so no card is turned and there is no trump to record.",
    )
