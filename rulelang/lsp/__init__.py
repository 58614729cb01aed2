"""The language server for editors (``rulelang lsp``; needs the ``lsp`` extra).

    model      what is known about one rule file, as data (``Analysis``:
               its problems, symbols, places, outline) and the lookups on it
    analysis   ``analyse``: one text parsed, checked and indexed, each name
               given the meaning the checker's resolver and the IR give it
    outline    the document's outline
    reference  a keyword's entry in docs/language.md, for hover
    server     the protocol on pygls: diagnostics, hover, definition,
               references, rename, completion, outline, formatting, quick fixes

Only ``server`` imports pygls.
"""
