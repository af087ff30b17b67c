"""``salad play``: a game against bots in the terminal (a Textual app) or as plain lines."""
