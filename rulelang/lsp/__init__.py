"""The language server for editors (``rulelang lsp``; needs the ``lsp`` extra).

    analysis   one text parsed, checked and indexed: its problems, what each
               name means, where it is declared, its outline (no protocol here)
    reference  a keyword's entry in docs/language.md, for hover
    server     the protocol on pygls: diagnostics, hover, definition,
               references, rename, completion, outline, formatting, quick fixes
"""
