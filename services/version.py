"""The installed distribution's version (``0.0.0`` in a source tree never installed)."""

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("reward-verifier")
except PackageNotFoundError:
    VERSION = "0.0.0"
