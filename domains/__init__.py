"""Domain packages, one per domain (movies, grocery, …), each implementing `runner.domain.Domain`."""
