"""How a bound's items become tasks: the bound before tells where the tree is large, so the
cut goes deeper there (`shard_plan`'s split list) and the items are batched into tasks of about
equal nodes, consecutive in list order.

Invariant: tasks are the pending items in list order, each item in exactly one task, so the
first tasks hold the items that one thread searches first (the last bound needs every item
before its first solution and none after it)."""

import math

# A bound's work goes to the workers as about TASKS tasks a worker thread (fewer when the bound
# is small), so the last task of a bound keeps at most about 1/TASKS of a thread's share
# waiting. A task costs a round trip to the scheduler and the worker (milliseconds), so a task
# under LEAST nodes (about a second of a thread; --task-nodes) costs more than it balances,
# unless the bound is too small to give every thread one.
TASKS = 8
LEAST = 20_000_000


class Past:
    """What the bound before tells of the next: the nodes under each path (its items and
    their prefixes), its items, and how much a bound grows."""

    def __init__(self, least):
        self.sizes, self.items, self.totals, self.least = {}, [], [], least

    def learn(self, plan, results):
        self.sizes, self.items = {}, []
        for i, item in enumerate(plan["items"]):
            if (item["happy"], item["sad"]) == (0, 0):
                continue
            moves = tuple(item["moves"])
            self.items.append(moves)
            nodes = results.get(i, {}).get("nodes", 0)
            for length in range(len(moves) + 1):
                self.sizes[moves[:length]] = self.sizes.get(moves[:length], 0) + nodes
        self.totals.append(self.sizes.get((), 0))

    def growth(self):
        last = self.totals[-2:]
        return last[1] / last[0] if len(last) == 2 and last[0] and last[1] else 6.0

    def target(self, threads):
        """The nodes a task of the next bound should take (None: nothing known)."""
        if not self.totals or not self.totals[-1]:
            return None
        total = self.totals[-1] * self.growth()
        return max(min(self.least, total / threads), total / (threads * TASKS))

    def splits(self, threads):
        """`fifteen shard plan --split`'s list: as deep as before below every item of the
        bound before, and deeper below those that would outgrow a task (a move halves an
        item or better, mostly), so the cut only gets finer from bound to bound."""
        target = self.target(threads)
        if target is None:
            return []
        wanted = []
        for moves in self.items:
            ratio = self.sizes[moves] * self.growth() / target
            deeper = math.ceil(math.log2(ratio)) if ratio > 1 else 0
            wanted.append({"moves": list(moves), "depth": len(moves) + deeper})
        return wanted

    def predicted(self, plan):
        """Each item's nodes as the bound before suggests: the nodes under its path there,
        or its share of the item it is part of (nothing for a part of the tree new in this
        bound)."""
        items, known = set(self.items), []
        for item in plan["items"]:
            moves = tuple(item["moves"])
            parts = [moves[:n] for n in range(len(moves), 0, -1) if moves[:n] in items]
            known.append(moves if moves in self.sizes else (parts or [None])[0])
        shares = {}
        for prefix in known:
            shares[prefix] = shares.get(prefix, 0) + 1
        growth = self.growth()
        return [self.sizes.get(prefix, 0) * growth / shares[prefix] for prefix in known]


def batches(plan, pending, past, threads):
    """The pending items as tasks of consecutive items in list order, each of about the
    target size by the bound before (with nothing known, TASKS a thread of equal counts)."""
    target = past.target(threads)
    if target is None:
        count = max(1, math.ceil(len(pending) / (threads * TASKS)))
        return [pending[i : i + count] for i in range(0, len(pending), count)]
    sizes = past.predicted(plan)
    tasks, task, nodes = [], [], 0
    for i in pending:
        if task and nodes + sizes[i] > target:
            tasks.append(task)
            task, nodes = [], 0
        task.append(i)
        nodes += sizes[i]
    return tasks + [task] if task else tasks


def settled(plan, results):
    """Whether the results decide the bound: every item up to the first solution is done
    (with the plan's `all`, every item: each solution is wanted)."""
    every = plan.get("all", False)
    for i, item in enumerate(plan["items"]):
        if item["happy"] == 0 and item["sad"] == 0:
            if every:
                continue  # a solution met by the cut itself: nothing to run
            return True
        if i not in results:
            return False
        if results[i]["solutions"] and not every:
            return True
    return True
