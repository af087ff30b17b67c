"""``python -m salad``: the `salad` command."""

from salad.cli import main

if __name__ == "__main__":
    main()
