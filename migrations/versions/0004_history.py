"""history: the audit trail of round writes; indexes for the games list and the purge

Revision ID: 0004_history
Revises: 0003_sharing
Create Date: 2026-11-21

Reviewed: one row per write to a round (old and new facts as JSON, the use case as kind),
cascading with the game and indexed by game and round for a round's history; games indexed
by updated_at (the games list, newest activity first) and deleted_at (restore and purge);
entries by (game_id, seat, bid, tricks), covering the statistics' grouping by player and game.
The integrator re-chains this onto 0003_sharing at merge.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0004_history'
down_revision = '0003_sharing'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('round_changes',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('old', sa.JSON(), nullable=True),
    sa.Column('new', sa.JSON(), nullable=True),
    sa.CheckConstraint('round_number >= 1', name=op.f('ck_round_changes_round_number')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_round_changes_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_changes'))
    )
    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.create_index('ix_round_changes_game_round', ['game_id', 'round_number'], unique=False)

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_updated_at', ['updated_at'], unique=False)
        batch_op.create_index('ix_games_deleted_at', ['deleted_at'], unique=False)

    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.create_index('ix_entries_game_seat', ['game_id', 'seat', 'bid', 'tricks'], unique=False)


def downgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_index('ix_entries_game_seat')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_deleted_at')
        batch_op.drop_index('ix_games_updated_at')

    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_round_changes_game_round')

    op.drop_table('round_changes')
