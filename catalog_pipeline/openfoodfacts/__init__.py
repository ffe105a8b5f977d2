"""The grocery domain's source: Open Food Facts and Open Prices dumps (or their offline fixture world) → a dated snapshot."""
