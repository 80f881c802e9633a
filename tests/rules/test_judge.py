"""The referee's judgement of a trick: one test per rule, seed 002's ten example tricks in
both readings, the refusals, and properties of every trick."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import Suit
from scorekeeper.rules.judge import (
    REASONS,
    Card,
    Kind,
    PlayError,
    Reading,
    Reason,
    Verdict,
    card_from,
    judge,
)
from scorekeeper.rules.variants import Special

from .helpers import assert_refused

STANDARD, HOUSE = Reading.STANDARD, Reading.HOUSE
BLUE, GREEN, RED, YELLOW = Suit.BLUE, Suit.GREEN, Suit.RED, Suit.YELLOW
Z = Card(Kind.WIZARD)
N = Card(Kind.JESTER)
BOMB = Card(Special.BOMB)
DRAGON = Card(Special.DRAGON)
FAIRY = Card(Special.FAIRY)
SHIFTER_Z = Card(Special.SHAPESHIFTER, played_as=Kind.WIZARD)
SHIFTER_N = Card(Special.SHAPESHIFTER, played_as=Kind.JESTER)
NAMES = ("Thomas", "Ute", "Kevin", "Anna", "Ben", "Cleo")


def blue(n: int) -> Card:
    return Card.of(BLUE, n)


def green(n: int) -> Card:
    return Card.of(GREEN, n)


def red(n: int) -> Card:
    return Card.of(RED, n)


def yellow(n: int) -> Card:
    return Card.of(YELLOW, n)


def cloud(suit: Suit) -> Card:
    return Card(Special.CLOUD, suit)


def juggler(suit: Suit) -> Card:
    return Card(Special.JUGGLER, suit)


# -- Seed 002's ten example tricks (four players, red is trump) ---------------------------
# Each with the winner seed 002 names under its house rule, and the standard reading's.

SEED_002 = [
    pytest.param([Z, yellow(7), N, red(8)], 0, 0, id="wizard-led-wins"),
    pytest.param([red(8), yellow(7), N, Z], 0, 3, id="trump-led-devalues-wizard"),
    pytest.param([yellow(7), red(8), N, Z], 3, 3, id="non-trump-led-wizard-wins"),
    pytest.param([N, red(8), yellow(7), Z], 1, 3, id="jester-then-trump-devalues-wizard"),
    pytest.param([N, red(8), red(11), Z], 2, 3, id="jester-then-trumps-highest-trump"),
    pytest.param([green(11), green(12), N, green(5)], 1, 1, id="highest-of-led-suit"),
    pytest.param([green(13), green(2), red(1), green(5)], 2, 2, id="low-trump-beats-led-13"),
    pytest.param([N, green(2), green(1), blue(13)], 1, 1, id="jester-led-next-card-sets-suit"),
    pytest.param([green(13), red(1), green(1), red(3)], 3, 3, id="higher-trump-wins"),
    pytest.param([green(13), red(1), Z, blue(3)], 2, 2, id="wizard-after-suit-led-wins"),
]


@pytest.mark.parametrize(("cards", "house_winner", "standard_winner"), SEED_002)
def test_seed_002_example_tricks_under_the_house_rule(
    cards: list[Card], house_winner: int, standard_winner: int
) -> None:
    assert judge(RED, HOUSE, cards).winner == house_winner


@pytest.mark.parametrize(("cards", "house_winner", "standard_winner"), SEED_002)
def test_seed_002_example_tricks_under_the_standard_reading(
    cards: list[Card], house_winner: int, standard_winner: int
) -> None:
    assert judge(RED, STANDARD, cards).winner == standard_winner


# -- The standard reading: one test per rule ------------------------------------------------


def test_first_wizard_played_wins() -> None:
    assert judge(RED, STANDARD, [red(13), Z, Z, blue(2)]) == Verdict(1, 1, Reason.FIRST_WIZARD)


def test_several_wizards_the_first_one_wins() -> None:
    assert judge(None, STANDARD, [Z, Z, Z, Z]).winner == 0


def test_highest_trump_beats_the_led_suit() -> None:
    assert judge(BLUE, STANDARD, [green(13), blue(2), blue(5), green(12)]) == Verdict(
        2, 2, Reason.HIGHEST_TRUMP
    )


def test_without_trump_highest_card_of_the_led_suit_wins() -> None:
    assert judge(None, STANDARD, [yellow(3), green(13), yellow(9), red(12)]) == Verdict(
        2, 2, Reason.HIGHEST_LED
    )


def test_a_card_off_the_led_suit_never_wins_without_trump() -> None:
    assert judge(BLUE, STANDARD, [yellow(2), green(13), red(13)]).winner == 0


def test_jester_led_lets_the_next_card_set_the_suit() -> None:
    assert judge(None, STANDARD, [N, green(5), green(9), red(13)]).winner == 2


def test_wizard_after_a_jester_lead_wins_as_a_wizard() -> None:
    assert judge(RED, STANDARD, [N, Z, red(13)]).reason is Reason.FIRST_WIZARD


def test_only_jesters_the_first_jester_wins() -> None:
    assert judge(RED, STANDARD, [N, N, N, N]) == Verdict(0, 0, Reason.FIRST_JESTER)


def test_a_single_card_wins_its_trick_so_far() -> None:
    assert judge(RED, STANDARD, [green(1)]).winner == 0


# -- The house reading (seed 002) -------------------------------------------------------------


def test_house_wizard_led_keeps_the_wizards_value_over_a_trump() -> None:
    assert judge(RED, HOUSE, [Z, red(13), Z]) == Verdict(0, 0, Reason.FIRST_WIZARD)


def test_house_trump_as_first_suited_card_makes_wizards_worthless() -> None:
    judgement = judge(RED, HOUSE, [red(2), Z, red(5)])
    assert judgement == Verdict(2, 2, Reason.WIZARDS_WORTHLESS)


def test_house_a_wizard_after_a_jester_lead_is_not_a_wizard_lead() -> None:
    # RULES.md: the Wizard must lead the trick; after a Jester lead the trump devalues it.
    assert judge(RED, HOUSE, [N, Z, red(8)]).winner == 2
    assert judge(RED, STANDARD, [N, Z, red(8)]).winner == 1


def test_house_trump_thirteen_first_cannot_be_beaten() -> None:
    assert judge(RED, HOUSE, [red(13), Z, Z]).winner == 0


def test_house_without_trump_the_wizards_keep_their_value() -> None:
    assert judge(None, HOUSE, [red(8), Z]).winner == 1


def test_house_without_a_wizard_the_highest_trump_gives_the_plain_reason() -> None:
    assert judge(RED, HOUSE, [red(8), red(9)]).reason is Reason.HIGHEST_TRUMP


# -- The special cards ------------------------------------------------------------------------


def test_dragon_beats_every_card_wizards_included() -> None:
    assert judge(RED, STANDARD, [Z, red(13), DRAGON, Z]) == Verdict(2, 2, Reason.DRAGON)


def test_dragon_beats_a_wizard_led_under_the_house_rule() -> None:
    assert judge(RED, HOUSE, [Z, DRAGON, red(13)]).winner == 1


def test_fairy_wins_a_trick_that_holds_the_dragon() -> None:
    assert judge(RED, STANDARD, [DRAGON, Z, FAIRY]) == Verdict(2, 2, Reason.FAIRY)


def test_fairy_loses_even_to_a_jester() -> None:
    assert judge(RED, STANDARD, [FAIRY, N, N]) == Verdict(1, 1, Reason.JESTER_OVER_FAIRY)


def test_fairy_led_lets_the_next_card_set_the_suit() -> None:
    assert judge(None, STANDARD, [FAIRY, green(2), yellow(13)]).winner == 1


def test_fairy_alone_takes_its_trick_so_far() -> None:
    assert judge(RED, STANDARD, [FAIRY]) == Verdict(0, 0, Reason.FAIRY_ALONE)


def test_bomb_trick_is_won_by_nobody_and_the_would_be_winner_leads() -> None:
    assert judge(RED, STANDARD, [green(3), BOMB, red(2), green(9)]) == Verdict(None, 2, Reason.BOMB)


def test_bomb_beats_the_dragon_and_the_dragon_leads_next() -> None:
    assert judge(RED, STANDARD, [BOMB, Z, DRAGON]) == Verdict(None, 2, Reason.BOMB)


def test_bomb_alone_its_player_leads_next() -> None:
    assert judge(None, STANDARD, [BOMB]) == Verdict(None, 0, Reason.BOMB)


def test_bomb_led_lets_the_next_card_set_the_suit() -> None:
    assert judge(None, STANDARD, [BOMB, yellow(4), green(13)]).leads_next == 1


def test_shapeshifter_as_wizard_wins_as_the_first_wizard() -> None:
    assert judge(RED, STANDARD, [red(13), SHIFTER_Z, Z]) == Verdict(
        1, 1, Reason.SHAPESHIFTER_WIZARD
    )


def test_shapeshifter_as_wizard_loses_to_an_earlier_wizard() -> None:
    assert judge(RED, STANDARD, [Z, SHIFTER_Z]) == Verdict(0, 0, Reason.FIRST_WIZARD)


def test_shapeshifter_as_jester_loses_like_a_jester() -> None:
    assert judge(RED, STANDARD, [SHIFTER_N, green(2), N]).winner == 1


def test_shapeshifter_as_jester_can_take_a_trick_of_jesters() -> None:
    assert judge(RED, STANDARD, [SHIFTER_N, N, N]) == Verdict(0, 0, Reason.FIRST_JESTER)


def test_shapeshifter_as_wizard_is_devalued_by_the_house_rule() -> None:
    assert judge(RED, HOUSE, [red(4), SHIFTER_Z]).winner == 0


def test_shapeshifter_as_wizard_leading_keeps_its_value_under_the_house_rule() -> None:
    assert judge(RED, HOUSE, [SHIFTER_Z, red(13)]).winner == 0


def test_cloud_counts_nine_and_three_quarters_in_its_named_suit() -> None:
    assert judge(None, STANDARD, [green(9), cloud(GREEN)]).winner == 1
    assert judge(None, STANDARD, [cloud(GREEN), green(10)]).winner == 1


def test_cloud_named_in_the_trump_suit_is_a_trump() -> None:
    assert judge(RED, STANDARD, [green(13), cloud(RED), red(9)]).winner == 1


def test_cloud_led_sets_its_named_suit() -> None:
    assert judge(None, STANDARD, [cloud(BLUE), green(13), blue(2)]).winner == 0


def test_juggler_counts_seven_and_a_half_in_its_named_suit() -> None:
    assert judge(None, STANDARD, [yellow(7), juggler(YELLOW)]).winner == 1
    assert judge(None, STANDARD, [juggler(YELLOW), yellow(8)]).winner == 1


def test_juggler_named_in_the_trump_suit_makes_wizards_worthless_under_the_house_rule() -> None:
    assert judge(RED, HOUSE, [juggler(RED), Z]).winner == 0


# -- The sentence ------------------------------------------------------------------------------


def test_reason_names_the_winner() -> None:
    judgement = judge(RED, STANDARD, [red(2), Z, N])
    assert judgement.render(NAMES) == "Ute wins: the first Wizard played."


def test_bomb_reason_names_who_leads_next() -> None:
    judgement = judge(RED, STANDARD, [BOMB, red(2), N])
    assert judgement.render(NAMES) == (
        "Nobody wins: the Bomb was played, and Ute, who would have won, leads next."
    )


def test_reason_is_translated_before_the_name_is_filled_in() -> None:
    judgement = judge(RED, STANDARD, [Z])
    german = {judgement.message: "%(name)s gewinnt: der erste Zauberer."}
    assert judgement.render(NAMES, german.__getitem__) == "Thomas gewinnt: der erste Zauberer."


def test_every_reason_is_one_sentence_with_the_name() -> None:
    assert set(REASONS) == set(Reason)
    for message in REASONS.values():
        assert "%(name)s" in message
        assert message.endswith(".")
        assert ". " not in message


# -- Refusals -----------------------------------------------------------------------------------


def refusal(cards: list[Card]) -> PlayError:
    with pytest.raises(PlayError) as caught:
        judge(RED, STANDARD, cards)
    return caught.value


def test_a_trick_needs_a_card() -> None:
    assert_refused(refusal([]), PlayError, "A trick needs at least one card.")


def test_a_trick_has_at_most_one_card_per_player() -> None:
    error = refusal([N, N, green(1), green(2), green(3), green(4), green(5)])
    assert_refused(error, PlayError, "A trick has at most 6 cards, one for each player.")


def test_a_suited_card_is_played_once() -> None:
    error = refusal([red(8), red(8)])
    assert_refused(error, PlayError, "The red 8 is played twice, but the deck holds one.")
    assert error.field == "cards[1]"


def test_a_special_card_is_played_once() -> None:
    error = refusal([cloud(RED), cloud(BLUE)])
    assert_refused(
        error, PlayError, "A special card is played twice, but the deck holds one of each."
    )


def test_at_most_four_wizards() -> None:
    error = refusal([Z, Z, Z, Z, Z])
    assert_refused(error, PlayError, "A trick holds at most 4 Wizards, as many as the deck.")


def test_at_most_four_jesters() -> None:
    error = refusal([N, N, N, N, N])
    assert_refused(error, PlayError, "A trick holds at most 4 Jesters, as many as the deck.")


def test_the_werewolf_is_never_played_in_a_trick() -> None:
    error = refusal([red(2), Card(Special.WEREWOLF)])
    assert_refused(
        error,
        PlayError,
        "The Werewolf is never played in a trick: its holder swaps it for the turned card "
        "before the bids.",
    )
    assert error.field == "cards[1]"


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (
            {"kind": "shapeshifter"},
            "The Shapeshifter is played as a Wizard or as a Jester: say which.",
        ),
        (
            {"kind": "shapeshifter", "played_as": "dragon"},
            "The Shapeshifter is played as a Wizard or as a Jester: say which.",
        ),
        (
            {"kind": "suited", "suit": "red", "number": 14},
            "A suited card's number is 1 to 13, not 14.",
        ),
        (
            {"kind": "suited", "suit": "red", "number": 0},
            "A suited card's number is 1 to 13, not 0.",
        ),
        ({"kind": "suited", "suit": "red"}, "A suited card needs its number, 1 to 13."),
        (
            {"kind": "suited", "number": 3},
            "A suited card needs its suit, one of blue, green, red, yellow.",
        ),
        (
            {"kind": "cloud"},
            "The Cloud is played in a suit its player names: give one of blue, green, red, yellow.",
        ),
        (
            {"kind": "juggler"},
            "The Juggler is played in a suit its player names: give one of blue, green, red, "
            "yellow.",
        ),
        ({"kind": "wizard", "number": 13}, "Only a suited card has a number, so leave it out."),
        (
            {"kind": "jester", "suit": "red"},
            "Only a suited card, the Cloud and the Juggler have a suit, so leave it out.",
        ),
        (
            {"kind": "wizard", "played_as": "jester"},
            "Only the Shapeshifter is played as another card, so leave that out.",
        ),
        (
            {"kind": "unicorn"},
            "A card is one of suited, wizard, jester, bomb, cloud, werewolf, juggler, dragon, "
            "fairy, shapeshifter, not “unicorn”.",
        ),
        (
            {"kind": "suited", "suit": "purple", "number": 3},
            "A suit is one of blue, green, red, yellow, not “purple”.",
        ),
    ],
)
def test_a_card_is_one_the_deck_holds(words: dict[str, Any], message: str) -> None:
    with pytest.raises(PlayError) as caught:
        card_from(**words, field="cards[0]")
    assert_refused(caught.value, PlayError, message)
    assert caught.value.field == "cards[0]"


def test_card_from_reads_the_shapeshifters_choice() -> None:
    assert card_from("shapeshifter", played_as="wizard") == SHIFTER_Z
    assert card_from("suited", "green", 7) == green(7)
    assert card_from("cloud", "blue") == cloud(BLUE)


# -- Properties ----------------------------------------------------------------------------------

TRUMPS = st.sampled_from([None, *Suit])
SUITED = st.builds(Card.of, st.sampled_from(list(Suit)), st.integers(1, 13))
PLAIN = st.one_of(SUITED, st.just(Z), st.just(N))
ANY_CARD = st.one_of(
    PLAIN,
    st.sampled_from([BOMB, DRAGON, FAIRY, SHIFTER_Z, SHIFTER_N]),
    st.builds(Card, st.sampled_from([Special.CLOUD, Special.JUGGLER]), st.sampled_from(list(Suit))),
)


def distinct(cards: list[Card]) -> bool:
    """A trick the deck can hold: no card twice but Wizards and Jesters, at most four each."""
    others = [card if card.kind is Kind.SUITED else card.kind for card in cards]
    unique = [card for card in others if card not in (Kind.WIZARD, Kind.JESTER)]
    return (
        len(unique) == len(set(unique))
        and others.count(Kind.WIZARD) <= 4
        and others.count(Kind.JESTER) <= 4
    )


TRICKS = st.lists(ANY_CARD, min_size=1, max_size=6).filter(distinct)


@given(TRUMPS, st.sampled_from(list(Reading)), TRICKS)
def test_exactly_one_winner_among_the_cards_played_unless_a_bomb(
    trump: Suit | None, reading: Reading, cards: list[Card]
) -> None:
    judgement = judge(trump, reading, cards)
    assert 0 <= judgement.leads_next < len(cards)
    if BOMB in cards:
        assert judgement.winner is None
    else:
        assert judgement.winner == judgement.leads_next
    judgement.render(NAMES[: len(cards)])


@given(TRUMPS, TRICKS)
def test_the_readings_agree_on_a_trick_without_wizards(
    trump: Suit | None, cards: list[Card]
) -> None:
    if any(card in (Z, SHIFTER_Z) for card in cards):
        return
    assert judge(trump, STANDARD, cards) == judge(trump, HOUSE, cards)


@given(st.lists(st.one_of(SUITED, st.just(N)), min_size=1, max_size=6).filter(distinct))
def test_without_trump_wizards_and_specials_the_highest_card_of_the_led_suit_wins(
    cards: list[Card],
) -> None:
    suited = [card for card in cards if card.kind is Kind.SUITED]
    judgement = judge(None, STANDARD, cards)
    assert judgement.winner is not None
    if not suited:
        assert judgement.winner == 0
        return
    led = suited[0].suit
    highest = max((card for card in suited if card.suit is led), key=lambda card: card.number or 0)
    assert cards[judgement.winner] == highest
