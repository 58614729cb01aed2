"""Adapters that make any ruleset an environment for the tools AI agents are
trained and tested with: OpenSpiel (``openspiel``), PettingZoo
(``pettingzoo``), Gymnasium (``gymnasium``), and a text view for language
models (``text``).

The three libraries are optional (``pip install 'rulelang[adapters]'``):
each module imports its library when it is imported, and says in one line
what to install when it is missing.  What they share (the stable action
numbers, the rewards, what a seat has seen) is in ``common``, which needs
none of them.  See ``docs/adapters.md``.
"""
