"""How the driver cuts and batches a bound from the sizes of the bound before (no cluster)."""

from fifteen.dask.cut import TASKS, Past, batches, settled


def item(*moves):
    return {"moves": list(moves), "happy": 3, "sad": 1, "before": 0}


# A bound of four items of 10, 1000, 10 and 10 nodes, and the next one cut as deep again
# except below the large item, cut two moves deeper into four.
BEFORE = {"items": [item(1, 2), item(1, 3), item(4, 5), item(4, 6)]}
RESULTS = {0: {"nodes": 10}, 1: {"nodes": 1000}, 2: {"nodes": 10}, 3: {"nodes": 10}}
NEXT = {
    "items": [item(1, 2)]
    + [item(1, 3, a, b) for a, b in [(7, 8), (7, 9), (8, 7), (8, 9)]]
    + [item(4, 5), item(4, 6), item(9, 9)]
}


def test_the_cut_goes_deeper_only_below_items_that_outgrow_a_task():
    past = Past(least=1)
    past.learn(BEFORE, RESULTS)
    # One bound known: a bound grows sixfold; 1030 * 6 nodes for 2 threads of TASKS tasks.
    target = 1030 * 6 / (2 * TASKS)
    assert past.target(2) == target
    depths = {tuple(s["moves"]): s["depth"] for s in past.splits(2)}
    # 6000 nodes are 15.5 targets: four moves deeper (a move at least halves a subtree).
    assert depths == {(1, 2): 2, (1, 3): 6, (4, 5): 2, (4, 6): 2}
    # With a floor of a task above a thread's share, a task is that share.
    assert Past(least=10**9).target(2) is None
    floored = Past(least=10**9)
    floored.learn(BEFORE, RESULTS)
    assert floored.target(2) == 1030 * 6 / 2


def test_tasks_are_consecutive_items_of_about_the_target_size():
    past = Past(least=1)
    past.learn(BEFORE, RESULTS)
    # Below (1, 3), each of the four new items is predicted a quarter of 6000.
    assert past.predicted(NEXT) == [60, 1500, 1500, 1500, 1500, 60, 60, 0]
    pending = list(range(len(NEXT["items"])))
    tasks = batches(NEXT, pending, past, threads=2)
    assert tasks == [[0], [1], [2], [3], [4], [5, 6, 7]]
    # Items done already are left out, and the order stays.
    assert batches(NEXT, [0, 2, 5, 6, 7], past, threads=2) == [[0], [2], [5, 6, 7]]
    # Nothing known: TASKS a thread, of equal counts.
    assert batches(NEXT, pending, Past(least=1), threads=1) == [[i] for i in pending]


def test_a_bound_is_settled_at_its_first_solution_or_with_all_at_its_end():
    plan = {"items": [item(1), item(2), item(3)]}
    found = {0: {"solutions": []}, 1: {"solutions": [[1, 2]]}}
    assert settled(plan, found)
    assert not settled(plan, {0: {"solutions": []}})
    # With --all every item is wanted, a solution met by the cut itself (0+0 left) aside.
    every = dict(plan, all=True)
    assert not settled(every, found)
    assert settled(every, {**found, 2: {"solutions": []}})
    cut_solution = {"moves": [4], "happy": 0, "sad": 0, "before": 0}
    assert settled(dict(every, items=[cut_solution, item(5)]), {1: {"solutions": []}})
