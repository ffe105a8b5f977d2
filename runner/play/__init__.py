"""Playing trials: the trial loop, one named trial, how a submission names its agent, and who is to blame for a failure."""
