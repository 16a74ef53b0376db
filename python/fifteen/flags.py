"""Keyword arguments as the command line's flags: `size="4x4"` is `--size 4x4`, `all=True` is
`--all`, None and False are left out. The core reads them with the binary's own parser, so
every check and message is the binary's.

Invariant: the words built are the command line a user would type for the same options, so
the core can only accept what the binary accepts."""


def position_words(position):
    """A position as the command line's words: a string as it is, a sequence of tiles as
    comma-separated numbers."""
    if isinstance(position, str):
        return [position]
    return [",".join(str(tile) for tile in position)]


def flags(**given):
    """`--name value` for each keyword given a value (underscores become dashes), `--name`
    alone for True."""
    words = []
    for name, value in given.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
        else:
            words += [flag, str(value)]
    return words
