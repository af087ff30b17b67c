"""``python -m salad.cli``: the `salad` command.

The command loads only when run as the program: a process multiprocessing starts from it (the
fork server of ``salad serve``'s bot pool, or a bot worker where there is none) imports this
module too, and needs none of it.
"""

if __name__ == "__main__":
    from salad.cli import main

    main()
