"""The special cards of the anniversary editions on the score sheet (the Bomb, the Cloud, the
Werewolf; the others change nothing there), and the round plan "odd hands only"."""

from __future__ import annotations

import pytest

from scorekeeper.rules.bids import forbidden_bid, verify_bids
from scorekeeper.rules.cards import Suit, TrumpCard, Turned, trump_from
from scorekeeper.rules.game import RoundRecord, RoundState, evaluate
from scorekeeper.rules.messages import BidError, SetupError, TrickError, TrumpError
from scorekeeper.rules.specials import (
    CloudBid,
    scored_bid,
    scored_bids,
    verify_bomb,
    verify_cloud,
    verify_cloud_took_a_trick,
    verify_one_bomb,
)
from scorekeeper.rules.table import Table, cards_in_round, full_game_rounds
from scorekeeper.rules.tally import nobody_allowed, verify_tally, verify_trick_winner
from scorekeeper.rules.tricks import all_made_tricks, complete_draft, fill_tricks, verify_tricks
from scorekeeper.rules.variants import BidRule, GameRules, RoundPlan, Special, parse_specials

from .helpers import JESTER, assert_refused, make_table

BOMB = frozenset({Special.BOMB})
CLOUD = frozenset({Special.CLOUD})
WEREWOLF = frozenset({Special.WEREWOLF})
ODD = RoundPlan.ODD_HANDS


# -- The deck ------------------------------------------------------------------------------


def test_a_game_has_no_special_cards_unless_the_table_chooses_them() -> None:
    assert GameRules(rounds=20).special_cards == frozenset()
    assert parse_specials([]) == frozenset()
    assert parse_specials(["bomb", "cloud"]) == {Special.BOMB, Special.CLOUD}


def test_a_special_card_the_rules_do_not_know_is_refused() -> None:
    with pytest.raises(SetupError) as caught:
        parse_specials(["bomb", "joker"])
    assert_refused(
        caught.value,
        SetupError,
        "The special cards are some of bomb, cloud, werewolf, juggler, dragon, fairy, "
        "shapeshifter, not “joker”.",
    )


@pytest.mark.parametrize("names", [["bomb", "cloud", "bomb"], ["cloud", "cloud"]])
def test_a_deck_names_each_special_card_once(names: list[str]) -> None:
    with pytest.raises(SetupError) as caught:
        parse_specials(names)
    assert_refused(
        caught.value,
        SetupError,
        f"The deck holds one of each special card: “{names[-1]}” is named twice.",
    )
    assert caught.value.field == "rules.special_cards"


@pytest.mark.parametrize("alone", ["dragon", "fairy"])
def test_the_dragon_and_the_fairy_go_in_together(alone: str) -> None:
    with pytest.raises(SetupError) as caught:
        parse_specials([alone])
    assert_refused(
        caught.value,
        SetupError,
        "The Dragon and the Fairy go into the deck together or not at all.",
    )
    assert parse_specials(["dragon", "fairy"]) == {Special.DRAGON, Special.FAIRY}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_with_a_special_card_the_last_round_of_a_full_game_still_turns_a_card(
    players: int,
) -> None:
    last = full_game_rounds(players)
    table = make_table(players, specials=frozenset({Special.JUGGLER}))
    assert not table.deals_every_card(last)
    game = evaluate(table, {n: _all_to_seat_0(table, n) for n in range(1, last)})
    assert game.round(last).state is RoundState.TRUMP  # asked, not set by the app
    assert make_table(players).deals_every_card(last)


@pytest.mark.parametrize(
    "card", [Special.JUGGLER, Special.SHAPESHIFTER, frozenset({Special.DRAGON, Special.FAIRY})]
)
def test_juggler_dragon_fairy_and_shapeshifter_change_nothing_on_the_sheet(
    card: Special | frozenset[Special],
) -> None:
    deck = card if isinstance(card, frozenset) else frozenset({card})
    plain, special = make_table(3, rounds=5), make_table(3, rounds=5, specials=deck)
    records = {n: _all_to_seat_0(plain, n) for n in range(1, 6)}
    assert evaluate(special, records).totals == evaluate(plain, records).totals


# -- The Bomb ------------------------------------------------------------------------------


def test_in_a_bomb_round_the_tricks_add_up_to_the_cards_minus_one() -> None:
    table = make_table(3, specials=BOMB)
    verify_tricks(table, 3, [1, 1, 0], bomb=True)
    with pytest.raises(TrickError) as caught:
        verify_tricks(table, 3, [1, 1, 1], bomb=True)
    assert_refused(
        caught.value,
        TrickError,
        "The tricks add up to 3, but round 3 has 2: 1 trick too many "
        "(the Bomb was played: its trick goes to nobody).",
    )


def test_in_a_bomb_round_the_missing_count_is_filled_in_from_cards_minus_one() -> None:
    table = make_table(3, specials=BOMB)
    assert fill_tricks(table.tricks(4, bomb=True), (2, None, 1)) == (2, 0, 1)
    assert complete_draft(table, 4, (2, None, 0), bomb=True) == (2, 1, 0)
    assert all_made_tricks(table, 4, (1, 2, 0), bomb=True) == (1, 2, 0)
    with pytest.raises(TrickError, match="not everyone can have made their bid"):
        all_made_tricks(table, 4, (1, 2, 1), bomb=True)


def test_a_bomb_round_is_scored_as_usual() -> None:
    table = make_table(3, specials=BOMB)
    record = RoundRecord(JESTER, (1, 0, 1), (1, 0, 0), bomb=True)
    view = evaluate(table, {1: _all_to_seat_0(table, 1), 2: record}).round(2)
    assert view.state is RoundState.SCORED
    assert view.tricks_total == 1
    assert view.scores == [30, 20, -10]


def test_the_bomb_is_refused_in_a_game_without_it() -> None:
    with pytest.raises(SetupError) as caught:
        verify_bomb(make_table(3), True)
    assert_refused(
        caught.value, SetupError, "This game is played without the Bomb: it is not in the deck."
    )
    verify_bomb(make_table(3), False)


def test_a_bomb_turned_up_for_trump_means_no_trump() -> None:
    assert trump_from("bomb", None, BOMB) == TrumpCard(Turned.BOMB, None)
    with pytest.raises(TrumpError, match="The turned card is one of blue, green, red, yellow, "):
        trump_from("bomb")


BOMB_TURNED = TrumpCard(Turned.BOMB, None)


def test_the_bomb_turned_up_for_trump_is_not_also_played_in_that_round() -> None:
    with pytest.raises(SetupError) as caught:
        verify_one_bomb(BOMB_TURNED, True)
    assert_refused(
        caught.value,
        SetupError,
        "The Bomb was turned up for trump in this round, so it cannot also be played in it.",
    )
    assert caught.value.field == "bomb"
    with pytest.raises(TrumpError) as turned:  # in the other order: played, then turned up
        verify_one_bomb(BOMB_TURNED, True, field="turned")
    assert_refused(
        turned.value,
        TrumpError,
        "The Bomb was played in this round, so it cannot also be the card turned up.",
    )
    assert turned.value.field == "turned"
    verify_one_bomb(BOMB_TURNED, False)
    verify_one_bomb(JESTER, True)
    verify_one_bomb(None, True)


def test_no_trick_goes_to_nobody_in_a_round_whose_trump_the_bomb_decided() -> None:
    table = make_table(3, specials=BOMB)
    assert nobody_allowed(table, (), JESTER)
    assert not nobody_allowed(table, (), BOMB_TURNED)
    with pytest.raises(TrickError) as caught:
        verify_trick_winner(table, 3, (0,), None, BOMB_TURNED)
    assert_refused(
        caught.value,
        TrickError,
        "The Bomb was turned up for trump in round 3, so no trick of it goes to nobody.",
    )
    with pytest.raises(TrickError) as whole:
        verify_tally(table, 3, (0, None), BOMB_TURNED)
    assert_refused(
        whole.value,
        TrickError,
        "The tally gives trick 2 to nobody, but the Bomb was turned up for trump, so no trick "
        "of the round goes to nobody.",
    )
    assert whole.value.field == "tally[1]"
    verify_tally(table, 3, (0, None), JESTER)


# -- The Cloud -----------------------------------------------------------------------------


def test_the_clouds_change_goes_to_a_seat_that_took_a_trick() -> None:
    table = make_table(3, specials=CLOUD)
    with pytest.raises(BidError) as caught:
        verify_cloud_took_a_trick(table, CloudBid(seat=1, bid=1), (2, 0, 1))
    assert_refused(
        caught.value,
        BidError,
        "The Cloud changes the bid of the player who won its trick, and Ute took no trick in "
        "this round.",
    )
    assert caught.value.field == "cloud.seat"
    verify_cloud_took_a_trick(table, CloudBid(seat=0, bid=1), (2, 0, 1))
    verify_cloud_took_a_trick(table, None, (2, 0, 1))
    verify_cloud_took_a_trick(table, CloudBid(seat=1, bid=1), None)  # tricks not in yet


def test_the_cloud_changes_the_winners_bid_and_the_round_is_scored_on_it() -> None:
    table = make_table(3, specials=CLOUD)
    cloud = CloudBid(seat=0, bid=3)  # Thomas bid 2, won the Cloud's trick, went up to 3
    record = RoundRecord(JESTER, (2, 0, 1), (3, 0, 0), cloud=cloud)
    records = {1: _all_to_seat_0(table, 1), 2: _all_to_seat_0(table, 2), 3: record}
    view = evaluate(table, records).round(3)
    assert view.bids == (2, 0, 1)  # the bids as made are kept ...
    assert view.cloud == cloud  # ... and the change beside them
    assert view.scores == [50, 20, -10]


def test_a_round_is_scored_on_the_bids_made_but_the_clouds_winners_as_changed() -> None:
    cloud = CloudBid(seat=1, bid=2)
    assert scored_bids((2, 1, 0), cloud) == (2, 2, 0)
    assert scored_bids((2, 1, 0), None) == (2, 1, 0)
    assert scored_bids(None, cloud) is None
    # Seat by seat (what the statistics ask of each entry), the same bids.
    assert [scored_bid(seat, bid, cloud) for seat, bid in enumerate((2, 1, 0))] == [2, 2, 0]
    assert scored_bid(0, 2, None) == 2


@pytest.mark.parametrize(
    ("made", "changed", "message"),
    [
        (2, 4, "The Cloud changes Thomas's bid of 2 by one, to 1 / 3, not to 4."),
        (0, -1, "The Cloud changes Thomas's bid of 0 by one, to 1, not to −1."),
        (3, 4, "The Cloud changes Thomas's bid of 3 by one, to 2, not to 4."),
        (2, 2, "The Cloud changes Thomas's bid of 2 by one, to 1 / 3, not to 2."),
    ],
)
def test_the_cloud_changes_a_bid_by_one_within_0_to_the_cards(
    made: int, changed: int, message: str
) -> None:
    table = make_table(3, specials=CLOUD)
    with pytest.raises(BidError) as caught:
        verify_cloud(table, 3, (made, 0, 0), CloudBid(0, changed))
    assert_refused(caught.value, BidError, message)


def test_a_cloud_refused_while_the_bids_are_hidden_names_neither_bid_nor_change() -> None:
    table = make_table(3, specials=CLOUD)
    sentences = set()
    for made in (0, 2, 3):  # the same refused change said alike, whatever the hidden bid
        for changed in (made - 1 if made == 0 else made + 2, made):
            with pytest.raises(BidError) as caught:
                verify_cloud(table, 3, (made, 1, 0), CloudBid(0, changed), hidden=True)
            sentences.add(str(caught.value))
            assert caught.value.field == "cloud.bid"
    assert sentences == {"The Cloud changes Thomas's bid by one, up or down, and only to 0 to 3."}


def test_everyone_made_it_refused_while_the_bids_are_hidden_does_not_tell_their_sum() -> None:
    table = make_table(3)
    with pytest.raises(TrickError) as caught:
        all_made_tricks(table, 3, (2, 2, 1), hidden=True)
    assert_refused(
        caught.value,
        TrickError,
        "Not everyone can have made their bid: the bids do not add up to the 3 tricks of round 3.",
    )
    with pytest.raises(TrickError, match="The bids add up to 5"):
        all_made_tricks(table, 3, (2, 2, 1))


def test_the_cloud_is_refused_in_a_game_without_it() -> None:
    with pytest.raises(SetupError, match="This game is played without the Cloud"):
        verify_cloud(make_table(3), 3, (1, 1, 0), CloudBid(0, 2))


def test_the_bid_rule_is_checked_on_the_bids_as_made_not_on_the_clouds_change() -> None:
    # Plus/Minus One, round 3: Kevin (seat 2) deals and bids last.
    table = make_table(3, specials=CLOUD, bid_rule=BidRule.PLUS_MINUS_ONE)
    dealer = table.dealer(3)
    bids = [1, 1, 1]
    bids[dealer] = 0  # made: 2, allowed (the total is not 3)
    verify_bids(table, 3, bids, [0, 0, 0])
    # The Cloud takes the dealer up to 1: the bids now add up to 3, which is fine.
    verify_cloud(table, 3, bids, CloudBid(dealer, 1))
    record = RoundRecord(JESTER, tuple(bids), (1, 1, 1), cloud=CloudBid(dealer, 1))
    records = {1: _all_to_seat_0(table, 1), 2: _all_to_seat_0(table, 2), 3: record}
    view = evaluate(table, records).round(3)
    assert view.forbidden_bid == forbidden_bid(table, 3, bids, view.totals_before) == 1
    assert view.scores == [30, 30, 30]


# -- The Werewolf --------------------------------------------------------------------------


@pytest.mark.parametrize("suit", list(Suit))
def test_the_werewolfs_holder_names_a_suit(suit: Suit) -> None:
    assert trump_from("werewolf", suit.value, WEREWOLF) == TrumpCard(Turned.WEREWOLF, suit)


def test_the_werewolfs_holder_may_name_no_trump() -> None:
    assert trump_from("werewolf", "none", WEREWOLF) == TrumpCard(Turned.WEREWOLF, None)


def test_the_werewolf_needs_its_holders_choice_and_a_deck_with_it() -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from("werewolf", None, WEREWOLF)
    assert_refused(
        caught.value,
        TrumpError,
        "The Werewolf's holder names the trump: give the chosen suit, one of blue, green, "
        "red, yellow, or none for no trump.",
    )
    with pytest.raises(TrumpError, match="not “purple”"):
        trump_from("werewolf", "purple", WEREWOLF)
    with pytest.raises(TrumpError, match="not “werewolf”"):
        trump_from("werewolf", "red")


# -- Odd hands only ------------------------------------------------------------------------


def test_odd_hands_deal_1_3_5_cards() -> None:
    assert [cards_in_round(n, ODD) for n in range(1, 6)] == [1, 3, 5, 7, 9]
    table = make_table(4, plan=ODD)
    assert [view.cards for view in evaluate(table, {}).rounds] == [1, 3, 5, 7, 9, 11, 13, 15]


@pytest.mark.parametrize(
    ("players", "rounds", "last"), [(3, 10, 19), (4, 8, 15), (5, 6, 11), (6, 5, 9)]
)
def test_odd_hands_play_every_odd_hand_sixty_cards_deal(
    players: int, rounds: int, last: int
) -> None:
    assert full_game_rounds(players, ODD) == rounds
    assert cards_in_round(rounds, ODD) == last
    assert last * players <= 60 < (last + 2) * players


def test_odd_hands_may_be_shorter_but_not_longer() -> None:
    assert make_table(5, plan=ODD, rounds=3).rules.rounds == 3
    with pytest.raises(SetupError) as caught:
        make_table(5, plan=ODD, rounds=7)
    assert_refused(caught.value, SetupError, "A game of 5 players has 1 to 6 rounds, not 7.")


def test_odd_hands_bids_and_tricks_run_to_the_cards_in_hand() -> None:
    table = make_table(3, plan=ODD)
    verify_bids(table, 2, [3, 0, 0], [0, 0, 0])  # round 2 deals 3 cards
    with pytest.raises(BidError, match=r"In round 2 Thomas can bid 0 to 3, not 4\."):
        verify_bids(table, 2, [4, 0, 0], [0, 0, 0])
    with pytest.raises(TrickError, match="round 2 has 3"):
        verify_tricks(table, 2, [1, 1, 0])


def test_odd_hands_the_dealer_passes_to_the_left_every_round() -> None:
    table = make_table(4, plan=ODD, first_dealer=2)
    assert [view.dealer for view in evaluate(table, {}).rounds] == [2, 3, 0, 1, 2, 3, 0, 1]


def test_odd_hands_with_four_players_the_last_round_deals_every_card() -> None:
    table = make_table(4, plan=ODD)
    assert table.deals_every_card(8)
    assert not any(table.deals_every_card(n) for n in range(1, 8))
    assert not make_table(4, plan=ODD, specials=BOMB).deals_every_card(8)


def _all_to_seat_0(table: Table, number: int) -> RoundRecord:
    """A scored round: seat 0 bids and wins every trick."""
    cards = table.cards(number)
    rest = (0,) * (table.seats - 1)
    trump = None if table.deals_every_card(number) else JESTER
    return RoundRecord(trump, (cards, *rest), (cards, *rest))
