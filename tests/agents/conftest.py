"""The agents' tests run only where OpenSpiel and PettingZoo are installed (the
``agents`` extra)."""
