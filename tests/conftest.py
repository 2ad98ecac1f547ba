"""Shared test set-up: hypothesis profiles.

``ci`` (the default) keeps the suite quick; ``fuzz`` runs long:
``HYPOTHESIS_PROFILE=fuzz python3 -m pytest tests/engine``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "fuzz", max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
