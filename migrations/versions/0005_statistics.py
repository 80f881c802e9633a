"""statistics: the entries' statistics index also covers the round number

Revision ID: 0005_statistics
Revises: 0004_history
Create Date: 2026-11-21

Reviewed: the statistics read each kept game's entries grouped by (game_id, seat) and need
the round number too (the pattern of exact bids, for the longest run): the index on
(game_id, seat, bid, tricks) is replaced by one on (game_id, seat, round_number, bid,
tricks), which covers that read (no lookup of the table's rows) in the grouping's order.
Nothing is stored: scores stay derived from bids and tricks.

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0005_statistics'
down_revision = '0004_history'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_index('ix_entries_game_seat')
        batch_op.create_index(
            'ix_entries_game_seat_round',
            ['game_id', 'seat', 'round_number', 'bid', 'tricks'],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_index('ix_entries_game_seat_round')
        batch_op.create_index('ix_entries_game_seat', ['game_id', 'seat', 'bid', 'tricks'], unique=False)
