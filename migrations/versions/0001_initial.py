"""initial schema: games, players, rounds, entries

Revision ID: 0001_initial
Revises: 
Create Date: 2026-11-21

Reviewed: four tables of facts only (no scores); named constraints; every child row
cascades with its game. Check constraints mirror the rules' enums.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0001_initial'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('games',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('edit_token_hash', sa.String(length=64), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('first_dealer', sa.Integer(), nullable=False),
    sa.Column('bid_rule', sa.String(length=16), nullable=False),
    sa.Column('last_bidder_may_bid_zero', sa.Boolean(), nullable=False),
    sa.Column('bid_reveal', sa.String(length=8), nullable=False),
    sa.Column('clairvoyance', sa.Boolean(), nullable=False),
    sa.Column('round_count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("bid_reveal IN ('open', 'covered', 'secret')", name=op.f('ck_games_bid_reveal')),
    sa.CheckConstraint("bid_rule IN ('standard', 'plus_minus_one', 'canadian')", name=op.f('ck_games_bid_rule')),
    sa.CheckConstraint('first_dealer >= 0', name=op.f('ck_games_first_dealer')),
    sa.CheckConstraint('round_count >= 1', name=op.f('ck_games_round_count')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_games_version')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    op.create_table('players',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.CheckConstraint('seat >= 0', name=op.f('ck_players_seat')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_players_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seat', name=op.f('pk_players'))
    )
    op.create_table('rounds',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('trump_turned', sa.String(length=8), nullable=True),
    sa.Column('trump_suit', sa.String(length=8), nullable=True),
    sa.CheckConstraint("trump_suit IN ('blue', 'green', 'red', 'yellow')", name=op.f('ck_rounds_trump_suit')),
    sa.CheckConstraint("trump_turned IN ('blue', 'green', 'red', 'yellow', 'jester', 'wizard', 'none')", name=op.f('ck_rounds_trump_turned')),
    sa.CheckConstraint('number >= 1', name=op.f('ck_rounds_number')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_rounds_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'number', name=op.f('pk_rounds'))
    )
    op.create_table('entries',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('bid', sa.Integer(), nullable=True),
    sa.Column('tricks', sa.Integer(), nullable=True),
    sa.CheckConstraint('bid >= 0', name=op.f('ck_entries_bid')),
    sa.CheckConstraint('tricks >= 0', name=op.f('ck_entries_tricks')),
    sa.ForeignKeyConstraint(['game_id', 'round_number'], ['rounds.game_id', 'rounds.number'], name='fk_entries_round', ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id', 'seat'], ['players.game_id', 'players.seat'], name='fk_entries_player', ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'round_number', 'seat', name=op.f('pk_entries'))
    )


def downgrade():
    op.drop_table('entries')
    op.drop_table('rounds')
    op.drop_table('players')
    op.drop_table('games')
