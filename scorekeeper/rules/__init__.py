"""The rules of Wizard that the Tablet of Truth keeps, as written in RULES.md.

Pure Python: nothing here knows of Flask, SQLAlchemy or HTTP. The service layer feeds
it the recorded facts (trump, bids, tricks) and asks it whether a new fact is allowed
and what the facts add up to (scores, totals, standings, winners). Every refusal is a
:class:`RuleError` whose message says, in one sentence, what is wrong and what is allowed.

A module per concept: ``messages`` (the refusals and the translation markers), ``cards``
(suits, the turned card, trump), ``variants`` (the bid rules by name, the reveal modes),
``table`` (players, names, dealing), ``scoring``, ``bids``, ``tricks``, ``game`` (the
evaluation of the recorded facts) and ``referee`` (which fact may be recorded now). Every
public name is here, so ``rules.Anything`` reads the same wherever it is defined.
"""

from .bids import (
    all_bids_in,
    allowed_bids,
    can_bid,
    forbidden_bid,
    verify_bids,
    verify_one_bid_per_seat,
)
from .cards import DECK_SIZE, Suit, Trump, Turned, trump_from
from .game import GameStatus, GameView, RoundRecord, RoundState, RoundView, bids_visible, evaluate
from .messages import (
    BidError,
    Gettext,
    Ngettext,
    OutOfTurnError,
    RuleError,
    SetupError,
    TrickError,
    TrumpError,
    gettext_noop,
    ngettext_noop,
)
from .referee import (
    BidChange,
    change_bid,
    verify_bids_turn,
    verify_not_scored,
    verify_trick_draft_turn,
    verify_tricks_turn,
    verify_trump_turn,
)
from .scoring import (
    EXACT_BID_BONUS,
    POINTS_PER_TRICK,
    Standing,
    add_scores,
    leaders,
    running_totals,
    score,
    standings,
)
from .table import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME_MAX_LENGTH,
    Table,
    cards_in_round,
    clean_names,
    fold_case,
    full_game_rounds,
    verify_first_dealer,
    verify_player_count,
    verify_rounds,
    within_hand,
)
from .tricks import (
    all_made_tricks,
    complete_draft,
    fill_tricks,
    tricks_if_all_made,
    verify_trick_count,
    verify_tricks,
)
from .variants import (
    BID_RULES,
    REVEALS,
    BidReveal,
    BidRule,
    BidRulePolicy,
    GameRules,
    bid_rule_policy,
    parse_bid_reveal,
    parse_bid_rule,
)

#: The marker of a message to translate (babel extracts ``_``), for the modules that raise
#: refusals of their own.
_ = gettext_noop

__all__ = [
    "BID_RULES",
    "DECK_SIZE",
    "EXACT_BID_BONUS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME_MAX_LENGTH",
    "POINTS_PER_TRICK",
    "REVEALS",
    "BidChange",
    "BidError",
    "BidReveal",
    "BidRule",
    "BidRulePolicy",
    "GameRules",
    "GameStatus",
    "GameView",
    "Gettext",
    "Ngettext",
    "OutOfTurnError",
    "RoundRecord",
    "RoundState",
    "RoundView",
    "RuleError",
    "SetupError",
    "Standing",
    "Suit",
    "Table",
    "TrickError",
    "Trump",
    "TrumpError",
    "Turned",
    "add_scores",
    "all_bids_in",
    "all_made_tricks",
    "allowed_bids",
    "bid_rule_policy",
    "bids_visible",
    "can_bid",
    "cards_in_round",
    "change_bid",
    "clean_names",
    "complete_draft",
    "evaluate",
    "fill_tricks",
    "fold_case",
    "forbidden_bid",
    "full_game_rounds",
    "gettext_noop",
    "leaders",
    "ngettext_noop",
    "parse_bid_reveal",
    "parse_bid_rule",
    "running_totals",
    "score",
    "standings",
    "tricks_if_all_made",
    "trump_from",
    "verify_bids",
    "verify_bids_turn",
    "verify_first_dealer",
    "verify_not_scored",
    "verify_one_bid_per_seat",
    "verify_player_count",
    "verify_rounds",
    "verify_trick_count",
    "verify_trick_draft_turn",
    "verify_tricks",
    "verify_tricks_turn",
    "verify_trump_turn",
    "within_hand",
]
