"""Every source's snapshots: one snapshot core (manifest, checksums, tables, verify, retention) and one folder per source.

- `manifest`, `snapshot`, `verify`, `tables`, `prune`, `dates`: the core, domain-free: any
  domain's snapshot folder is written, listed, verified and pruned by the same code, its
  `manifest.json` naming its domain.
- `tmdb/`: the movies domain's source (the TMDB API, or its offline fixture world).
- `openfoodfacts/`: the grocery domain's source (the Open Food Facts and Open Prices dumps, or
  their offline fixture world).

A domain names its source (`domains.movies` uses `catalog_pipeline.tmdb`) and takes its item
model from it (`tmdb/items.py`, `openfoodfacts/items.py`: the records a source normalises into);
nothing here imports a domain, and the core imports no source.
"""
