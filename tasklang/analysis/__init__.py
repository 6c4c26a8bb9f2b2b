"""Static analysis with z3: what can be proved or refuted about a task before anyone runs it.

``analyze(compiled)`` returns findings (TL2010-TL2019) and statistics; ``tasklang lint`` and
``tasklang compile --strict`` report them as diagnostics.
"""

from tasklang.analysis.checks import Finding, Options, Stats, analyze

__all__ = ["Finding", "Options", "Stats", "analyze"]
