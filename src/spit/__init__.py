"""spit: the real-time card game Spit (Speed, Slam) for two people at one terminal."""

__version__ = "0.1.0"
