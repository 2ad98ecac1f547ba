"""The real-time layer: the arbiter orders timestamped inputs and runs the timers."""
