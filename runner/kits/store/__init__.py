"""The store kit: what a stateful domain (a shop, a bank, a booking desk) needs besides its tables.

A stateful domain keeps one database per trial that only its write tools change, and scores a
trial by the state the trial left, rebuilt by replaying the trial's successful writes on a fresh
database, never by trusting what the agent says. The kit gives:

- `StoreError`: the refusal a write raises (changing nothing); the tools turn it into an error
  result the agent sees and can recover from;
- `StoreTools`: the tool plumbing of such a domain (listing, argument checks, unknown tools,
  refusals as error results) over a class whose tools are its own methods;
- `Action`, `WriteCall`, `trial_writes` and `replay`: an action sequence (a task's gold actions,
  or the writes a transcript recorded) run in order on fresh tools, each write checked to succeed;
- `state_differences`: the final-state comparison, field by field, as readable lines.

A domain declares its tables (the store class and its final-state model), its tools (methods
marked with `runner.core.toolkit.tool`, the write ones named in `write_tools`) and, where it has
them, each task's gold actions.
"""
