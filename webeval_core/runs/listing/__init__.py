"""The trajectory list: one concept in a few files, grouped here.

- `list_columns`: THE columns of a list row, each declared once (what the index SQL reads, the
  typed row `ListedTrajectory`, the frames, the app's table, every download and the bundle);
- `row_sql`: the SQL of a row as a judge counts it, of a filter's WHERE clause and of the
  temporary tables they read;
- `queries`: `IndexQueries`, the lists, counts and charts as SQL on a root's index file;
- `answers`: what those queries answer (small frozen models, no SQL).

Public names are re-exported by `webeval_core.runs`; nothing is imported here, so a module of the
sub-package loads only what it needs.
"""
