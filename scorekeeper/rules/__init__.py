"""The rules of Wizard that the Tablet of Truth keeps, as written in RULES.md.

Pure Python: nothing here knows of Flask, SQLAlchemy or HTTP. The service layer feeds it the
recorded facts (trump, bids, tricks) and asks whether a new fact is allowed and what the facts
add up to. A module per concept, each name imported from its module: ``messages`` (refusals,
translation markers), ``cards`` (suits, the turned card, trump), ``variants`` (bid rules,
reveal modes), ``table`` (players, names, dealing), ``scoring``, ``bids``, ``tricks``,
``game`` (the evaluation of the recorded facts) and ``referee`` (what may be recorded now).
"""
