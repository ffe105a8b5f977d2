"""Submission folders: the config and its checks, the interview and scaffold of a new one, the offline smoke run, and the plain-files rule."""
