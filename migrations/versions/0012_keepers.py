"""keepers: the right to keep score has one name

Revision ID: 0012_keepers
Revises: 0011_undo_stack
Create Date: 2026-12-03

Reviewed: renames only. The tables ``grants`` and ``ended_grants`` become
``keepers`` and ``ended_keepers``, their column ``device_hash`` becomes ``browser_hash``,
and their primary keys, foreign keys and indexes are renamed to match the naming
convention. SQLite renames the table in place and rebuilds it (batch mode) for the
X

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0012_keepers'
down_revision = '0011_undo_stack'
branch_labels = None
depends_on = None

_TABLES = (('grants', 'keepers'), ('ended_grants', 'ended_keepers'))


def _rename(old, new, old_column, new_column):
    """Table ``old`` named ``new``, its key column ``old_column`` ``new_column``, and its
    constraints and index named after the new table."""
    op.rename_table(old, new)
    with op.batch_alter_table(new, schema=None) as batch_op:
        batch_op.drop_index(f'ix_{old}_game_id')
        batch_op.drop_constraint(f'fk_{old}_game_id_games', type_='foreignkey')
        batch_op.drop_constraint(f'pk_{old}', type_='primary')
        batch_op.alter_column(old_column, new_column_name=new_column)
    with op.batch_alter_table(new, schema=None) as batch_op:
        batch_op.create_primary_key(f'pk_{new}', [new_column, 'game_id'])
        batch_op.create_foreign_key(
            f'fk_{new}_game_id_games', 'games', ['game_id'], ['id'], ondelete='CASCADE'
        )
        batch_op.create_index(f'ix_{new}_game_id', ['game_id'], unique=False)


def upgrade():
    for old, new in _TABLES:
        _rename(old, new, 'device_hash', 'browser_hash')


def downgrade():
    for old, new in _TABLES:
        _rename(new, old, 'browser_hash', 'device_hash')
