"""``spit server``: the place where strangers meet (accounts, ratings, pairing, the daily deal).

The pieces here are the server's own bookkeeping and decisions, kept apart
from the network code so each is tested on its own: ``names`` (which names a
player may claim), ``schema`` (the tables, one definition for every store),
``store`` (accounts by SSH key, ratings per mode, results, daily attempts, on
SQLite), ``pairing`` (quick-pair in waves) and ``daily`` (the deal of the day).
"""
