"""τ-Rec catalog pipeline: TMDB (or the fixture world) → discover → enrich → normalize → dated snapshot."""
