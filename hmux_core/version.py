"""The versions hmux reports: its own, and the tmux release whose behaviour it follows.

``tmux -V``, ``#{version}``, ``TERM_PROGRAM_VERSION`` and the XTVERSION answer all say
:data:`TMUX_VERSION`, because tools read them to decide what to send (a feature check against
``3.4``, say); ``hmux --version`` says both. One constant, so a release bump is one line.
"""

TMUX_VERSION = "3.7b"
HMUX_VERSION = "0.2.0"
