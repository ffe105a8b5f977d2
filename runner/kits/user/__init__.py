"""The user kit: the domain-free parts of a simulated user, written once for every domain.

A domain's user is a reader (message -> reading), a decision engine (reading -> `ReplyAct`, the
only part that holds the task) and a writer (act -> words). The kit gives:

- `acts`: the act base classes, the verdicts and the parts every domain's user says the same way
  (hold back questions, acknowledge "nothing fits", ask to make an accepted choice official);
- `questions`: the question-patience rule (topics answered per message, topics answered in all,
  the "form" that ends answering) shared by every engine;
- `writer`: the template writer's dispatch (one `word_<kind>` method per act part, consecutive
  parts merged where a domain says so) and the paraphrase helpers (`join_list`, `pick`);
- `leaks`: the per-trial leak audit's walk over a transcript (topics asked so far, the agent's
  last message, a bounded memo), given the domain's own `leaks_in` for one message.

A domain supplies its vocabulary (fields and their words), its act parts and act-to-verdict
rules, and its template banks as data.
"""
