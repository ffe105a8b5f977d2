"""The kits a domain builds on: what every domain would otherwise write again.

- `runner.kits.user`: the simulated user's machinery (reply acts, the ledger and the
  question-patience rule, the conversation replay, the template writer's dispatch, a model reader
  or writer with its fallback, the per-trial leak audit); a domain brings its vocabulary, its
  act-to-verdict rules and its templates.
- `runner.kits.store`: for stateful domains, the per-trial database, write-tool plumbing, replay
  of an action sequence on a fresh store and the final-state comparison; a domain brings its
  tables, tools and gold actions.

The arrows run one way: domains import the kits, the kits import only `runner.core` (and each
other), and `runner.core` imports no kit (tests/architecture/test_imports.py).
"""
