"""The table: who plays, their names, who deals each round and who bids first, and how many
cards each round deals."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import regex
from confusable_homoglyphs import confusables

from .cards import DECK_SIZE
from .messages import Count, SetupError
from .messages import gettext_noop as _
from .variants import GameRules, RoundPlan

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6
NAME_MAX_LENGTH: Final = 24


def full_game_rounds(players: int, plan: RoundPlan = RoundPlan.EVERY_HAND) -> int:
    """Rounds in a full game: every hand up to the one that deals every card (3: 20, 4: 15,
    5: 12, 6: 10), or, with odd hands only, every odd hand that 60 cards deal (3: 10 rounds
    up to 19 cards, 4: 8 up to 15, 5: 6 up to 11, 6: 5 up to 9)."""
    verify_player_count(players)
    largest = DECK_SIZE // players
    return (largest + 1) // 2 if plan is RoundPlan.ODD_HANDS else largest


def verify_player_count(players: int) -> None:
    """Raise unless 3 to 6 play."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(
            _("Wizard is played by %(min)d to %(max)d players, not %(players)d."),
            field="players",
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
            players=players,
        )


def fold_case(value: str) -> str:
    """``value`` in lower case as ``database.folded`` gives a name in the database, on
    SQLite and on PostgreSQL alike: letter by letter, so the Turkish "İ" is "i" (not
    Python's "i" with a combining dot), and a Greek sigma is "σ" wherever it stands (Python
    and a phone's keyboard write "ς" at a word's end)."""
    return value.replace("İ", "i").lower().replace("ς", "σ")


def search_key(value: str) -> str:
    """``value`` as a name is searched by: Unicode case folding (``str.casefold``), so that
    "strasse" and "STRASSE" find "Straße", the Turkish "İ" read as "i" (as :func:`fold_case`)
    and the result composed again (NFC, as names are stored)."""
    return unicodedata.normalize("NFC", value.replace("İ", "i").casefold())


#: One grapheme: what a reader sees as one character ("🧑‍🚀" is three code points).
_GRAPHEME = regex.compile(r"\X")
#: Code points that never show, wherever they stand.
_NEVER_SHOWN = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


def unshown(name: str) -> str | None:
    """The first code point of ``name`` that shows nothing where it stands, or ``None``.
    Names are judged by grapheme: a joiner or a variation selector inside an emoji's sequence
    ("Kim 🧑‍🚀", "🧙‍♂️ Merlin") is part of what shows; one standing alone, a control
    character or half of a surrogate pair shows nothing."""
    for found in _GRAPHEME.finditer(name):
        cluster: str = found.group()
        if not cluster[0].isprintable():
            return cluster[0]
        hidden = [char for char in cluster if unicodedata.category(char) in _NEVER_SHOWN]
        if hidden:
            return hidden[0]
    return None


def clean_names(names: Sequence[str]) -> tuple[str, ...]:
    """The players' names trimmed, after checking count, length and uniqueness."""
    verify_player_count(len(names))
    # NFC, so "José" typed two ways is one name, of the length it looks.
    cleaned = tuple(unicodedata.normalize("NFC", name).strip() for name in names)
    seen: dict[str, int] = {}
    for seat, name in enumerate(cleaned):
        where = f"players[{seat}]"
        if not name:
            raise SetupError(
                _(
                    "Player %(number)d has no name: give every player a name of 1 to %(max)d "
                    "characters."
                ),
                field=where,
                number=seat + 1,
                max=NAME_MAX_LENGTH,
            )
        if (hidden := unshown(name)) is not None:
            raise SetupError(
                _(
                    "The name of player %(number)d contains %(code)s, which shows nothing "
                    "there: use letters, digits, spaces, punctuation and emoji."
                ),
                field=where,
                number=seat + 1,
                code=f"U+{ord(hidden):04X}",
            )
        if len(name) > NAME_MAX_LENGTH:
            raise SetupError(
                _("The name %(name)s is too long: a name has at most %(max)d characters."),
                field=where,
                name=name,
                max=NAME_MAX_LENGTH,
            )
        # Names the statistics and the search take for one (fold_case) are one here too, and
        # so are names written in full-width letters ("Ａnn") and in plain ones (NFKC).
        key = fold_case(unicodedata.normalize("NFKC", name)).casefold()
        if twin := next((other for other in seen if looks_alike(key, other)), None):
            raise SetupError(
                _(
                    "“%(first)s” and “%(second)s” look alike: give every player a name the "
                    "others can tell apart."
                ),
                field=where,
                first=cleaned[seen[twin]],
                second=name,
            )
        if key in seen:
            first = cleaned[seen[key]]
            if first != name:  # "Ann" and "ann": say both, as typed
                raise SetupError(
                    _(
                        "“%(first)s” and “%(second)s” count as one name: give every player a "
                        "different name."
                    ),
                    field=where,
                    first=first,
                    second=name,
                )
            raise SetupError(
                _("Two players are called “%(name)s”: give every player a different name."),
                field=where,
                name=name,
            )
        seen[key] = seat
    return cleaned


def looks_alike(first: str, second: str) -> bool:
    """Whether two different names look the same letter by letter: each letter the same or
    one the Unicode consortium lists as confusable with it (a Cyrillic "а" beside a Latin
    "a"), as ``confusable_homoglyphs`` has the list."""
    return (
        first != second
        and len(first) == len(second)
        and all(a == b or b in _homoglyphs(a) for a, b in zip(first, second, strict=True))
    )


@functools.cache
def _homoglyphs(letter: str) -> frozenset[str]:
    found = confusables.is_confusable(letter, greedy=True, preferred_aliases=[])
    return frozenset(glyph["c"] for entry in found or () for glyph in entry["homoglyphs"])


def verify_rounds(rounds: int, players: int, plan: RoundPlan = RoundPlan.EVERY_HAND) -> None:
    """Raise unless ``rounds`` lies between 1 and the full game's count."""
    full = full_game_rounds(players, plan)
    if not 1 <= rounds <= full:
        raise SetupError(
            _("A game of %(players)d players has 1 to %(full)d rounds, not %(rounds)d."),
            field="rules.rounds",
            players=players,
            full=full,
            rounds=rounds,
        )


def verify_first_dealer(seat: int, players: int) -> None:
    """Raise unless ``seat`` is one of the table's seats."""
    if not 0 <= seat < players:
        raise SetupError(
            _("The first dealer is a seat from 0 to %(last)d, not %(seat)s."),
            field="first_dealer",
            last=players - 1,
            seat=Count(seat),
        )


@dataclass(frozen=True)
class Table:
    """Who plays, in clockwise seat order, who dealt first, and the rules."""

    players: tuple[str, ...]
    first_dealer: int
    rules: GameRules

    def __post_init__(self) -> None:
        verify_player_count(len(self.players))
        verify_first_dealer(self.first_dealer, len(self.players))
        verify_rounds(self.rules.rounds, len(self.players), self.rules.round_plan)

    @property
    def seats(self) -> int:
        """How many play."""
        return len(self.players)

    def dealer(self, round_number: int) -> int:
        """The seat that deals round ``round_number``: the deal passes to the left."""
        return (self.first_dealer + round_number - 1) % self.seats

    def bid_order(self, round_number: int) -> list[int]:
        """Seats in bid order: left of the dealer first, the dealer last."""
        dealer = self.dealer(round_number)
        return [(dealer + offset) % self.seats for offset in range(1, self.seats + 1)]

    def cards(self, round_number: int) -> int:
        """The cards each player holds in round ``round_number``, as the round plan deals."""
        return cards_in_round(round_number, self.rules.round_plan)

    def tricks(self, round_number: int, *, bomb: bool = False) -> int:
        """The tricks the players win in the round together: one per card in hand, but
        the Bomb's trick, when it was played, goes to nobody."""
        return self.cards(round_number) - bomb

    def holds(self, round_number: int, count: int) -> bool:
        """Whether ``count`` lies between 0 and the cards each player holds in the round:
        the range of a bid and of the tricks one player can win."""
        return 0 <= count <= self.cards(round_number)

    def deals_every_card(self, round_number: int) -> bool:
        """Whether the round deals all 60 cards of a deck without special cards, leaving no
        card to turn for trump (with special cards in it the deck has more than 60)."""
        return not self.rules.special_cards and self.cards(round_number) * self.seats == DECK_SIZE


def cards_in_round(round_number: int, plan: RoundPlan = RoundPlan.EVERY_HAND) -> int:
    """Round r deals r cards to each player; with odd hands only, 2r - 1 (1, 3, 5, ...)."""
    return 2 * round_number - 1 if plan is RoundPlan.ODD_HANDS else round_number
