"""The grocery source pipeline: published Open Food Facts and Open Prices dumps into a dated snapshot."""
