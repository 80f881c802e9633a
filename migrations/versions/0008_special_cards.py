"""special cards: a game's deck and round plan; a round's Bomb and Cloud; Bomb and Werewolf
at the trump step

Revision ID: 0008_special_cards
Revises: 0007_table_codes
Create Date: 2026-11-25

Reviewed: games gain the special cards in the deck (names, comma-separated; "" for none) and
the round plan (``every_hand`` or ``odd_hands``), both NOT NULL with the old behaviour as the
server default, so existing games read as before. Rounds gain the Bomb flag (NOT NULL, false)
and the Cloud's change (seat and changed bid, both NULL or both set). The check constraint on
``rounds.trump_turned`` is replaced by one that also allows ``bomb`` and ``werewolf``.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008_special_cards'
down_revision = '0007_table_codes'
branch_labels = None
depends_on = None

_OLD_TURNED = "trump_turned IN ('blue', 'green', 'red', 'yellow', 'jester', 'wizard', 'none')"
_NEW_TURNED = (
    "trump_turned IN ('blue', 'green', 'red', 'yellow', 'jester', 'wizard', 'none', "
    "'bomb', 'werewolf')"
)


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('round_plan', sa.String(length=16), nullable=False, server_default='every_hand'))
        batch_op.add_column(sa.Column('special_cards', sa.String(length=80), nullable=False, server_default=''))
        batch_op.create_check_constraint(op.f('ck_games_round_plan'), "round_plan IN ('every_hand', 'odd_hands')")

    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bomb', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('cloud_seat', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('cloud_bid', sa.Integer(), nullable=True))
        batch_op.create_check_constraint(op.f('ck_rounds_cloud_bid'), 'cloud_bid >= 0')
        batch_op.create_check_constraint(op.f('ck_rounds_cloud'), '(cloud_seat IS NULL) = (cloud_bid IS NULL)')
        batch_op.drop_constraint(op.f('ck_rounds_trump_turned'), type_='check')
        batch_op.create_check_constraint(op.f('ck_rounds_trump_turned'), _NEW_TURNED)


def downgrade():
    op.execute("UPDATE rounds SET trump_turned = 'jester', trump_suit = NULL WHERE trump_turned = 'bomb'")
    op.execute("UPDATE rounds SET trump_turned = 'wizard' WHERE trump_turned = 'werewolf' AND trump_suit IS NOT NULL")
    op.execute("UPDATE rounds SET trump_turned = 'jester' WHERE trump_turned = 'werewolf'")
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_rounds_trump_turned'), type_='check')
        batch_op.create_check_constraint(op.f('ck_rounds_trump_turned'), _OLD_TURNED)
        batch_op.drop_constraint(op.f('ck_rounds_cloud'), type_='check')
        batch_op.drop_constraint(op.f('ck_rounds_cloud_bid'), type_='check')
        batch_op.drop_column('cloud_bid')
        batch_op.drop_column('cloud_seat')
        batch_op.drop_column('bomb')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_games_round_plan'), type_='check')
        batch_op.drop_column('special_cards')
        batch_op.drop_column('round_plan')
