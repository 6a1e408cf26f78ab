"""``python -m skewjoin`` is the ``skewjoin`` command."""

from skewjoin.cli import main

main(prog_name="skewjoin")
