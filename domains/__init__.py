"""Domain packages, one per domain (movies, grocery, …), each implementing `runner.core.domain.Domain`."""
