"""undo stack: each audit row says where it stands on the undo stack

Revision ID: 0011_undo_stack
Revises: 0010_ended_grants
Create Date: 2026-12-02

Reviewed: four columns on round_changes and two indexes, nothing else changes. A write's
row names the change under it on the stack (``below``), an undo's or redo's the change it
takes back or puts back (``reverts``); ``reached`` is the round being played as far as the
stack reaches, ``corrected_before`` the round's "corrected" mark before the write
(services/stack.py). Rows written before are filled in by replaying each game's trail in
order, as undo used to on every round screen: a write is pushed (and clears what could be
redone), an undo moves the top to the undone, a redo moves it back.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011_undo_stack'
down_revision = '0010_ended_grants'
branch_labels = None
depends_on = None

_CHANGES = sa.table(
    'round_changes',
    sa.column('id', sa.Integer),
    sa.column('game_id', sa.String),
    sa.column('round_number', sa.Integer),
    sa.column('kind', sa.String),
    sa.column('old', sa.JSON),
    sa.column('new', sa.JSON),
    sa.column('below', sa.Integer),
    sa.column('reverts', sa.Integer),
    sa.column('reached', sa.Integer),
    sa.column('corrected_before', sa.Boolean),
)
_BATCH = 1000


def upgrade():
    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('below', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('reverts', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('reached', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('corrected_before', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_index('ix_round_changes_game_id', ['game_id', 'id'], unique=False)
        batch_op.create_index('ix_round_changes_game_below', ['game_id', 'below', 'id'], unique=False)
    _backfill(op.get_bind())


def _tricks(facts):
    return facts.get('tricks') if isinstance(facts, dict) else None


def _stacked(rows):
    """The stack columns of one game's rows (in id order), replayed as undo did."""
    done, undone, corrections, reached = [], [], {}, 1
    for row in rows:
        number = row.round_number
        values = {'id': row.id, 'below': None, 'reverts': None, 'reached': reached}
        values['corrected_before'] = corrections.get(number, 0) > 0
        if row.kind in ('undo', 'redo'):
            source, target = (done, undone) if row.kind == 'undo' else (undone, done)
            if source:
                entry = source.pop()
                target.append(entry)
                step = 1 if row.kind == 'redo' else -1
                if entry['kind'] == 'correction':
                    corrections[entry['round']] = corrections.get(entry['round'], 0) + step
                values['reverts'] = entry['id']
        else:
            scores = _tricks(row.old) is None and _tricks(row.new) is not None
            if done:
                values['below'] = done[-1]['id']
                reached = max(done[-1]['reached'], number + scores)
            else:
                reached = number + scores
            values['reached'] = reached
            done.append({'id': row.id, 'round': number, 'kind': row.kind, 'reached': reached})
            if row.kind == 'correction':
                corrections[number] = corrections.get(number, 0) + 1
            undone.clear()
        yield values


def _backfill(connection):
    query = sa.select(
        _CHANGES.c.id, _CHANGES.c.game_id, _CHANGES.c.round_number, _CHANGES.c.kind,
        _CHANGES.c.old, _CHANGES.c.new,
    ).order_by(_CHANGES.c.game_id, _CHANGES.c.id)
    update = (
        _CHANGES.update()
        .where(_CHANGES.c.id == sa.bindparam('row_id'))
        .values(
            below=sa.bindparam('below'),
            reverts=sa.bindparam('reverts'),
            reached=sa.bindparam('reached'),
            corrected_before=sa.bindparam('corrected_before'),
        )
    )
    rows = connection.execute(query).all()
    games = {}
    for row in rows:
        games.setdefault(row.game_id, []).append(row)
    batch = []
    for game_rows in games.values():
        for values in _stacked(game_rows):
            values['row_id'] = values.pop('id')
            batch.append(values)
            if len(batch) == _BATCH:
                connection.execute(update, batch)
                batch = []
    if batch:
        connection.execute(update, batch)


def downgrade():
    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_round_changes_game_below')
        batch_op.drop_index('ix_round_changes_game_id')
        batch_op.drop_column('corrected_before')
        batch_op.drop_column('reached')
        batch_op.drop_column('reverts')
        batch_op.drop_column('below')
