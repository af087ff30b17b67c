"""``python -m salad.cli``: the `salad` command.

The command loads only when run as the program: a process that multiprocessing's ``spawn``
starts from it (a bot worker of ``salad serve``) imports this module too, and needs none of it.
"""

if __name__ == "__main__":
    from salad.cli import main

    main()
