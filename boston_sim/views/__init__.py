"""Views of results: nothing here computes a statistic the analysis has not computed.

* ``table``: the readable report of one analysis (a rich table and its footnotes);
* ``export``: CSV and JSON files of an analysis;
* ``plots``: pictures of one analysis or of a batch (matplotlib, headless);
* ``batch_table``: the per-hand table ``batch`` prints at the end;
* ``manifest``: what made an output (the builder is the foundation module
  :mod:`boston_sim.manifest`, which the batch shares).

``report_text`` is also ``boston_sim.report_text`` and ``Analysis.report()``.

The progress bar every layer shares is :mod:`boston_sim.progress` (a foundation module, so
that the analysis can draw it without importing upwards).
"""

from __future__ import annotations

from .export import analysis_json, csv_rows, write_csv
from .table import (
    COMPACT_WIDTH,
    PIPE_WIDTH,
    print_report,
    render_table,
    report_text,
    summary_lines,
)

__all__ = ["COMPACT_WIDTH", "PIPE_WIDTH", "analysis_json", "csv_rows", "print_report",
           "render_table", "report_text", "summary_lines", "write_csv"]
