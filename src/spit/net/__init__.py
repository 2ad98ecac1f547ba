"""Play over the network: an authoritative host, guests at their own terminals.

``protocol`` (messages and their schema), ``stamping`` (press times),
``match`` (the host's game, seats and verdicts), ``codes`` (host key, join
codes), ``host`` (the SSH server), ``client`` (the guest's connection),
``botseat`` (a computer on a network seat). See docs/network.md.
"""
