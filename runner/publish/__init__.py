"""Publishing results: the offline leaderboard, the ledger of verified runs, re-scoring, and display names."""
