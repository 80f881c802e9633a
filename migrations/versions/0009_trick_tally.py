"""trick tally: each round keeps the winner of every trick tallied so far

Revision ID: 0009_trick_tally
Revises: 0007_table_codes
Create Date: 2026-11-25

Reviewed: one nullable column on rounds, nothing else changes. ``tally`` is a JSON list of
the winners of the round's tricks in the order they fell (a seat, or null: nobody, the trick
with a Bomb); NULL: nothing tallied. Existing rounds keep NULL: tallying is optional.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0009_trick_tally'
down_revision = '0008_special_cards'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tally', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('tally')
