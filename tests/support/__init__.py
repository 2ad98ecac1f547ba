"""What many tests share: a hand-moved clock and hand-built Spit deals.

Import it as ``from tests.support import FakeClock, deal`` (pytest puts the
repository root on the path; see ``pythonpath`` in pyproject.toml).
"""

from tests.support.clock import FakeClock
from tests.support.deals import deal, spit_packets, to_slap

__all__ = ["FakeClock", "deal", "spit_packets", "to_slap"]
