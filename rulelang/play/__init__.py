"""Playing a ruleset by hand: ``render`` turns what one seat may see into
readable text (for the terminal, and for any other front end that wants
words rather than a raw view), ``decision`` says what is being decided and
what a die means, ``terminal`` is ``rulelang play``."""
