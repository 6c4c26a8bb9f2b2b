"""The tasklang grammar, shipped as package data (``tasklang.grammar``)."""
