"""gunicorn's settings for Tablet of Truth, read from the directory gunicorn starts in.

The command line (``make run``, README.md's deployment, ``bench/load.py``) says how many
workers and threads; this file adds the hooks (see ``scorekeeper/serving.py``).
"""

from scorekeeper.serving import close_after, keepalive_requests

# A kept-alive connection is closed after this many requests (KEEPALIVE_REQUESTS, 0: never),
# so that busy phones spread over the workers.
pre_request = close_after(keepalive_requests())
