"""The user kit: the domain-free parts of a simulated user, written once for every domain.

A domain's user is a reader (message -> reading), a decision engine (reading -> `ReplyAct`, the
only part that holds the task) and a writer (act -> words). The kit gives:

- `reader`: what an agent message does, from the domain's `FieldVocabulary` (fields and their
  words as data): sentences and questionnaire items, preference questions by field, requests for
  a reaction to the item put forward (they spend no question), small talk (it asks nothing), mood
  questions (the domain's mood field) and pitches (the item is described: nothing to ask back);
  the domain finds its own items and people;
- `proposals`: which of the items a message names it puts forward (not a comparison, a
  reference, one ruled out or set aside), given the domain's words for items named in passing;
- `acts`: the act base classes, the verdicts and the parts every domain's user says the same way
  (hold back questions, acknowledge "nothing fits", ask to make an accepted choice official,
  nothing to say about some topics);
- `ledger`: the engine's ledger (topics answered, form, strikes, declines and when the user has
  had enough) and the question-patience rule (`Questions`, `answerable`);
- `replay`: what the user has read (a changed history starts over from a fresh state);
- `writer`: the template writer's dispatch (one `word_<kind>` method or one bank per act part,
  consecutive parts merged where a domain says so) and `join_list`;
- `fallback`: a model reader or writer with its fallback (the rules' reading or the template's
  words stand in for an unusable answer, and a `SimulatorNote` says why);
- `model`: LLM mode's loops, written once: `ModelReader` (call, check, else the rule reader's
  reading; valid readings remembered per trial) and `ModelWriter` (call, check, else the
  template's words), `parse_reading`, `answer_schema`, `plain_problem`, and one reply's
  bookkeeping (`read_unread`, `by_rules`, `word`, `Spent`); the domain brings its prompts, its
  answer fields and its checks, and the model is any `ChatModel`;
- `leaks`: the per-trial leak audit's walk over a transcript (topics asked so far, the agent's
  last message), given the domain's own `leaks_in` for one message.

A domain supplies its vocabulary (fields and their words), its act parts and act-to-verdict
rules, and its template banks as data.
"""
