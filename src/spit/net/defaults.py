"""The network's defaults, in a module that imports nothing.

The command line shows them in ``spit host --help`` and the title menu's
host screen fills them in; importing them must not load the SSH server
(``spit.net.host`` and asyncssh take longer to import than the rest of the
app's start-up).
"""

#: the TCP port ``spit host`` listens on and ``spit join`` connects to
DEFAULT_PORT = 7788
#: the TCP port ``spit server`` listens on and ``spit online`` connects to
DEFAULT_SERVER_PORT = 7790
#: quick-pair offers a computer of the player's strength after this many seconds
DEFAULT_BOT_AFTER = 60.0
#: the longest the host holds verdicts to order close races fairly (W's maximum,
#: seconds); W itself follows the players' measured delays
DEFAULT_WINDOW = 0.2
#: the most any press may be judged earlier than it arrived (seconds)
DEFAULT_CAP = 0.25

#: The environment variable that hands a plain-ssh door's game process its one-time
#: sign-in token (never its command line, which any local user can read).
DOOR_TOKEN_VARIABLE = "SPIT_DOOR_TOKEN"
