"""Adapters that let other RL frameworks (verl, OpenRLHF) use the reward service."""
