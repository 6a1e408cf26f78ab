"""``python -m skewjoin_devtools``: the ``skewjoin-dev`` command."""

from skewjoin_devtools.command import dev

if __name__ == "__main__":
    dev()
